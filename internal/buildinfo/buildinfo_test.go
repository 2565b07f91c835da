package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestModuleVersion(t *testing.T) {
	for _, c := range []struct {
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, true, "v1.2.3"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "devel"},
		{&debug.BuildInfo{}, true, "devel"},
		{nil, false, "devel"},
	} {
		if got := moduleVersion(c.bi, c.ok); got != c.want {
			t.Errorf("moduleVersion(%+v) = %q, want %q", c.bi, got, c.want)
		}
	}
}

func TestVCSCommit(t *testing.T) {
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "abc123"}
	for _, c := range []struct {
		settings []debug.BuildSetting
		want     string
	}{
		{[]debug.BuildSetting{rev}, "abc123"},
		{[]debug.BuildSetting{rev, {Key: "vcs.modified", Value: "true"}}, "abc123-dirty"},
		{[]debug.BuildSetting{rev, {Key: "vcs.modified", Value: "false"}}, "abc123"},
		{[]debug.BuildSetting{{Key: "vcs.modified", Value: "true"}}, ""},
	} {
		if got := vcsCommit(&debug.BuildInfo{Settings: c.settings}, true); got != c.want {
			t.Errorf("vcsCommit(%v) = %q, want %q", c.settings, got, c.want)
		}
	}
	if got := vcsCommit(nil, false); got != "" {
		t.Errorf("vcsCommit without build info = %q", got)
	}
}

// The stamped values win over what Go recorded.
func TestStamped(t *testing.T) {
	defer func(v, c string) { version, commit = v, c }(version, commit)
	version, commit = "1.0.0", "deadbeef"
	if got := Line(); got != "1.0.0 (commit deadbeef)" {
		t.Fatalf("Line() = %q", got)
	}
	commit = ""
	if Version() != "1.0.0" {
		t.Fatalf("Version() = %q", Version())
	}
}
