// Package pkg is the package resource: system packages kept present,
// absent, at the latest version or at a given version, through apt or dnf.
package pkg
