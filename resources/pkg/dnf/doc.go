// Package dnf is the dnf provider of the package resource: rpm -q says
// what is installed, dnf check-update whether something newer is
// available, dnf installs, upgrades, downgrades and removes.
//
// Versions are [epoch:]version-release. They are ordered by epoch, then by
// the generic segment comparison (CompareGeneric) of the version, then of
// the release; a missing epoch is 0 and a missing release matches any, so
// ensure: "5.8" is met by 5.8-9.el9, as dnf install zsh-5.8 would be.
//
// The provider reaches the host only through a command.Runner, so that it is
// tested against recorded rpm and dnf output on machines without them.
package dnf
