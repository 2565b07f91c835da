// Package ordertest holds the end-to-end tests of upstream CCM's most
// common manifest: install a package, write its configuration, start its
// service, with no require anywhere, relying on the written order. They
// drive the real dpkg and apt against fixture packages and a private
// systemd, in one-shot and in watch mode.
package ordertest
