package control_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/engine/daemon/control"
)

// TestServePath: the daemon's socket is --socket's, else $CCM_SOCKET's,
// else the default; --socket "" serves none, and only a socket named on
// purpose is required.
func TestServePath(t *testing.T) {
	for _, c := range []struct {
		flag, env string
		set       bool
		path      string
		required  bool
	}{
		{"", "", false, control.DefaultPath, false},
		{"", "/tmp/env.sock", false, "/tmp/env.sock", true},
		{"/tmp/flag.sock", "/tmp/env.sock", true, "/tmp/flag.sock", true},
		{"/tmp/flag.sock", "", true, "/tmp/flag.sock", true},
		{"", "/tmp/env.sock", true, "", false},
	} {
		t.Setenv(control.PathEnv, c.env)
		if path, required := control.ServePath(c.flag, c.set); path != c.path || required != c.required {
			t.Errorf("%+v: %q %v", c, path, required)
		}
	}
}
