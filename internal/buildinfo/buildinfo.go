// Package buildinfo is the version and commit ccm was built from: stamped
// by `make build` and `make dist`, else what Go recorded in the binary.
package buildinfo

import "runtime/debug"

// Stamped by `make build` and `make dist` (-ldflags -X
// github.com/reactive-ccm/ccm/internal/buildinfo.version=… and …commit=…).
// A plain `go build` or `go install` leaves them empty, and the module and
// VCS information Go records is used instead.
var (
	version string
	commit  string
)

// Version is ccm's release version: the stamped one, else the module's
// (go install …@v1.2.3), else "devel".
func Version() string {
	if version != "" {
		return version
	}
	return moduleVersion(debug.ReadBuildInfo())
}

func moduleVersion(bi *debug.BuildInfo, ok bool) string {
	if ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// Commit is the commit ccm was built from, "-dirty" when the tree had
// changes, or "" when it is not known.
func Commit() string {
	if commit != "" {
		return commit
	}
	return vcsCommit(debug.ReadBuildInfo())
}

func vcsCommit(bi *debug.BuildInfo, ok bool) string {
	if !ok {
		return ""
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "-dirty"
		}
	}
	if rev == "" {
		return ""
	}
	return rev + dirty
}

// Line is what `ccm --version` prints after "ccm version ".
func Line() string {
	if c := Commit(); c != "" {
		return Version() + " (commit " + c + ")"
	}
	return Version()
}
