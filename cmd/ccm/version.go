package main

import "runtime/debug"

// Stamped by `make build` and `make dist` (-ldflags -X main.buildVersion=…
// -X main.buildCommit=…). A plain `go build` or `go install` leaves them
// empty, and the module and VCS information Go records is used instead.
var (
	buildVersion string
	buildCommit  string
)

// version is ccm's release version: the stamped one, else the module's
// (go install …@v1.2.3), else "devel".
func version() string {
	if buildVersion != "" {
		return buildVersion
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// commit is the commit ccm was built from, "-dirty" when the tree had
// changes, or "" when it is not known.
func commit() string {
	if buildCommit != "" {
		return buildCommit
	}
	bi, ok := debug.ReadBuildInfo()
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

// versionLine is what `ccm --version` prints after "ccm version ".
func versionLine() string {
	if c := commit(); c != "" {
		return version() + " (commit " + c + ")"
	}
	return version()
}
