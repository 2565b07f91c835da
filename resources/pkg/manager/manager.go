// Package manager is the contract between the package resource and the
// package managers (apt, dnf) that carry out its decisions.
package manager

import (
	"context"

	"github.com/reactive-ccm/ccm/resources"
)

// Latest, given as the version to Install or Upgrade, asks for the newest
// version the package manager offers.
const Latest = "latest"

// Manager is one package manager. The package resource serialises the
// calls that change the host: Status, Newer and VersionCmp may run
// concurrently with each other, but never while Install, Upgrade,
// Downgrade or Uninstall runs. Every call that runs a program takes ctx
// first and returns promptly, with an error, when ctx is done.
type Manager interface {
	// Name is the provider's name in manifests and reports ("apt").
	Name() string
	// Watch names the package database files whose change may mean a
	// package was installed, removed or changed version.
	Watch() resources.WatchSpec
	// Track announces that name will be asked about, so that the first
	// Status of many packages is one query. It does not block.
	Track(name string)
	// Status returns the installed version of name, or "" when the
	// package is not fully installed (removed with its configuration
	// left, half installed, unpacked but not configured...).
	Status(ctx context.Context, name string) (string, error)
	// Newer returns the version an upgrade of name would install, or ""
	// when none is newer than installed.
	Newer(ctx context.Context, name, installed string) (string, error)
	// Install installs name at version: "" for whichever version the
	// package manager picks, Latest, or an exact version.
	Install(ctx context.Context, name, version string) error
	// Upgrade moves an installed name up to version (Latest or exact).
	Upgrade(ctx context.Context, name, version string) error
	// Downgrade moves an installed name down to an exact version.
	Downgrade(ctx context.Context, name, version string) error
	// Uninstall removes name, keeping its configuration files.
	Uninstall(ctx context.Context, name string) error
	// VersionCmp orders two versions the way this package manager does:
	// -1 when a is older than b, 0 when equal, 1 when newer.
	VersionCmp(a, b string) (int, error)
}

// Idler is a Manager that can tell when other programs (an administrator's
// dpkg, an unattended upgrade) are done changing the package database.
// The package resource waits for it before a change, so that it decides on
// the outcome of their run instead of colliding with it.
type Idler interface {
	// WaitIdle returns once no other program is changing the package
	// database, or with ctx's error when ctx ends.
	WaitIdle(ctx context.Context) error
}
