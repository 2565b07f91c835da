package authorizedkey_test

import (
	"encoding/base64"
	"encoding/binary"
	"os/exec"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
)

// TestMain runs the tests with /etc and /home tmpfs copies, where they
// add users.
func TestMain(m *testing.M) {
	sandbox.Main(m, sandbox.Options{Copies: []string{"/etc", "/home"}})
}

// addUser creates a user with a home in the sandbox.
func addUser(t *testing.T, name string) {
	t.Helper()
	sandbox.Require(t)
	if out, err := exec.Command("useradd", "--create-home", "--shell", "/bin/sh", name).CombinedOutput(); err != nil {
		t.Fatalf("useradd %s: %v: %s", name, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("userdel", "--remove", name).CombinedOutput(); err != nil {
			t.Errorf("userdel %s: %v: %s", name, err, out)
		}
	})
}

// pubKey is an ed25519 public key's base64 blob, made of seed.
func pubKey(seed byte) string {
	var b []byte
	put := func(s []byte) {
		b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
		b = append(b, s...)
	}
	put([]byte("ssh-ed25519"))
	key := make([]byte, 32)
	for i := range key {
		key[i] = seed + byte(i)
	}
	put(key)
	return base64.StdEncoding.EncodeToString(b)
}
