package authorizedkey_test

import (
	"os"
	"testing"

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
	do := func(change func() error) func(*testing.T) {
		return func(t *testing.T) {
			if err := change(); err != nil {
				t.Fatal(err)
			}
		}
	}
	w.RepairsEach(t, id, []enginetest.Drift{
		{Name: "key replaced by another", Make: do(func() error { return os.WriteFile(path, []byte(host), 0o600) }), Want: host + line},
		{Name: "file removed", Make: do(func() error { return os.Remove(path) }), Want: line},
		{Name: "directory made writable by all", Make: do(func() error { return os.Chmod(dir, 0o777) }), Want: line},
		// A rename takes the directory away at once; a removal file by file
		// would race the repair.
		{Name: "directory moved away", Make: do(func() error { return os.Rename(dir, "/home/ccmwatch/ssh.moved") }), Want: line},
	}, func(t *testing.T, d enginetest.Drift) {
		if got := resourcetest.ReadFile(t, path); got != d.Want {
			t.Errorf("authorized_keys holds %q, want %q", got, d.Want)
		}
	})
}
