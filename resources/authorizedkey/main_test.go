package authorizedkey_test

import (
	"encoding/base64"
	"encoding/binary"
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
	sandbox.Command(t, "useradd", "--create-home", "--shell", "/bin/sh", name)
	t.Cleanup(func() { sandbox.Command(t, "userdel", "--remove", name) })
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
