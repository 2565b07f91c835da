package user_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"

	_ "github.com/reactive-ccm/ccm/resources/authorizedkey"
	_ "github.com/reactive-ccm/ccm/resources/group"
)

// TestWatchRepairsDrift: a group, a user in it with a home and a key;
// the host's tools changing the shell, locking the password, taking the
// user out of the group or deleting the user are repaired at once.
func TestWatchRepairsDrift(t *testing.T) {
	sandbox.Require(t)
	const id = "user#ccmwatch"
	w := enginetest.Start(t, `
- group:
    - ccmwatchers: {}
- user:
    - ccmwatch:
        groups: [ccmwatchers]
        home: /home/ccmwatch
        managehome: true
        shell: /bin/sh
        password: "`+hash+`"
- authorized_key:
    - ccm@test:
        user: ccmwatch
        type: ssh-ed25519
        key: AAAAC3NzaC1lZDI1NTE5AAAAIAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g
`, enginetest.Options{})
	w.Changed(t, "group#ccmwatchers")
	w.Changed(t, id)
	w.Changed(t, "authorized_key#ccm@test")
	w.Settle(t)
	t.Cleanup(func() {
		sandbox.Command(t, "userdel", "--remove", "ccmwatch")
		sandbox.Command(t, "groupdel", "ccmwatchers")
	})
	w.RepairsEach(t, id, []enginetest.Drift{
		{Name: "shell changed", Make: sandbox.Step("usermod", "--shell", "/bin/bash", "ccmwatch")},
		{Name: "password locked", Make: sandbox.Step("usermod", "--lock", "ccmwatch")},
		{Name: "taken out of the group", Make: sandbox.Step("gpasswd", "--delete", "ccmwatch", "ccmwatchers")},
		{Name: "user deleted", Make: sandbox.Step("userdel", "ccmwatch")},
	}, func(t *testing.T, _ enginetest.Drift) {
		u := lookup(t, "ccmwatch")
		if u == nil || u.Shell != "/bin/sh" || u.Password != hash || groupsOf(t, "ccmwatch") != "ccmwatchers" {
			t.Errorf("after the repair %+v in %q", u, groupsOf(t, "ccmwatch"))
		}
	})
}
