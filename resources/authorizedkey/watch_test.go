package authorizedkey_test

import (
	"os"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// TestWatchRepairsDrift: a key deleted by hand, the file removed, or the
// whole ~/.ssh moved away, is put back at once, and a key the host added
// stays.
func TestWatchRepairsDrift(t *testing.T) {
	addUser(t, "ccmwatch")
	const (
		dir  = "/home/ccmwatch/.ssh"
		path = dir + "/authorized_keys"
		id   = "authorized_key#admin"
	)
	w := enginetest.Start(t, `
- authorized_key:
    - admin:
        user: ccmwatch
        type: ssh-ed25519
        key: `+pubKey(1)+`
`, enginetest.Options{})
	w.Changed(t, id)
	w.Settle(t)
	line := "ssh-ed25519 " + pubKey(1) + " admin\n"
	host := "ssh-ed25519 " + pubKey(2) + " host\n"
	tamper := []struct {
		name string
		do   func() error
		want string
	}{
		{"key replaced by another", func() error { return os.WriteFile(path, []byte(host), 0o600) }, host + line},
		{"file removed", func() error { return os.Remove(path) }, line},
		{"directory made writable by all", func() error { return os.Chmod(dir, 0o777) }, line},
		// A rename takes the directory away at once; a removal file by file
		// would race the repair.
		{"directory moved away", func() error { return os.Rename(dir, "/home/ccmwatch/ssh.moved") }, line},
	}
	for _, tt := range tamper {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			if err := tt.do(); err != nil {
				t.Fatal(err)
			}
			if ev := w.Changed(t, id); ev.Trigger != engine.TriggerDrift {
				t.Errorf("repair %+v, want a drift", ev)
			}
			t.Logf("repaired %s after the edit", time.Since(start))
			w.Settle(t)
			if got := resourcetest.ReadFile(t, path); got != tt.want {
				t.Errorf("authorized_keys holds %q, want %q", got, tt.want)
			}
		})
	}
}
