// Package service is the service resource: systemd units kept running or
// stopped, enabled or disabled, over systemd's D-Bus API.
package service
