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

// Op is what a change does to a package.
type Op int

const (
	// None changes nothing.
	None Op = iota
	// Install installs a package that is not installed.
	Install
	// Upgrade moves an installed package up.
	Upgrade
	// Downgrade moves an installed package down, to an exact version.
	Downgrade
	// Uninstall removes a package, keeping its configuration files.
	Uninstall
)

// Change is one package change: Op applied to Name. Version is the
// version to install or move to: "" for whichever the package manager
// picks (Install only), Latest, or an exact version.
type Change struct {
	Op      Op
	Name    string
	Version string
}

// Runs splits cs into runs of consecutive changes with the same key, in
// order: the changes one program run can make together.
func Runs(cs []Change, key func(Change) string) [][]Change {
	var out [][]Change
	for i, c := range cs {
		if i > 0 && key(c) == key(cs[i-1]) {
			out[len(out)-1] = append(out[len(out)-1], c)
			continue
		}
		out = append(out, []Change{c})
	}
	return out
}

// Manager is one package manager. The package resource serialises the
// calls that change the host: Status, Newer and VersionCmp may run
// concurrently with each other, but never while Change runs. Every call
// that runs a program takes ctx first and returns promptly, with an
// error, when ctx is done.
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
	// Change makes every change of cs, in order, in as few runs of the
	// package manager's program as it allows: consecutive changes its
	// program takes in one run (apt-get install a b=1.0) share that run. A
	// single change runs the one command the design gives for it. Change
	// stops at the first run that fails and returns its error, which then
	// concerns every change of that run.
	Change(ctx context.Context, cs ...Change) error
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
