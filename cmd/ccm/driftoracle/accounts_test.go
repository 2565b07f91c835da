package driftoracle_test

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
	"golang.org/x/sys/unix"
)

// Accounts: groups, users in them with a home, and a key of each user,
// in the sandbox's copies of /etc and /home, tampered with the host's
// own tools as an administrator would. They join only in a sandbox.

// accountsPerTree is how many groups, users and keys a tree has.
const accountsPerTree = 3

// accountSeq numbers the accounts across trees: the configurations'
// daemons run one after the other on the same /etc.
var accountSeq int

// accountName is the i-th account of kind prefix.
func accountName(prefix string, i int) string { return fmt.Sprintf("ccmo-%s%d", prefix, i) }

// uidOf and gidOf are the i-th user's uid and group's gid, apart from
// each other and from the gids the tools give users' own groups (their
// uid when free), so that no repair finds its id taken by another
// account of the tree.
func uidOf(i int) int { return 47000 + i }

func gidOf(i int) int { return 48000 + i }

var groupKind = &kind{
	name:         "group",
	generate:     func(g *gen, k *kind) { generateAccounts(g, k, "g", true) },
	modes:        []os.FileMode{0o644},
	manifestType: "group",
	entry:        func(r *resource) string { return fmt.Sprintf("{gid: %d}", gidOf(accountIndex(r))) },
	holds: func(r *resource) string {
		f := dbRecord("/etc/group", r.path)
		switch {
		case f == nil:
			return "no such group"
		case f[2] != fmt.Sprint(gidOf(accountIndex(r))):
			return "gid " + f[2]
		}
		return ""
	},
	tampers: []tamper{
		{"groupmod --gid", func(h *hand, r *resource) error {
			return tool("groupmod", "--gid", fmt.Sprint(gidOf(accountIndex(r))+1000), r.path)
		}},
		{"groupdel", func(_ *hand, r *resource) error { return tool("groupdel", r.path) }},
	},
}

var userKind = &kind{
	name:         "user",
	generate:     func(g *gen, k *kind) { generateAccounts(g, k, "u", false) },
	modes:        []os.FileMode{0o755},
	manifestType: "user",
	entry: func(r *resource) string {
		i := accountIndex(r)
		return fmt.Sprintf("{uid: %d, groups: [%s], home: /home/%s, managehome: true, shell: /bin/sh, comment: oracle}",
			uidOf(i), accountName("g", i), r.path)
	},
	holds: func(r *resource) string {
		i := accountIndex(r)
		f := dbRecord("/etc/passwd", r.path)
		switch {
		case f == nil:
			return "no such user"
		case f[2] != fmt.Sprint(uidOf(i)) || f[4] != "oracle" || f[5] != "/home/"+r.path || f[6] != "/bin/sh":
			return "passwd record " + strings.Join(f, ":")
		}
		if g := dbRecord("/etc/group", accountName("g", i)); g == nil || !slices.Contains(strings.Split(g[3], ","), r.path) {
			return "not a member of " + accountName("g", i)
		}
		return ""
	},
	tampers: []tamper{
		{"usermod --shell", func(_ *hand, r *resource) error { return tool("usermod", "--shell", "/bin/bash", r.path) }},
		{"usermod --comment", func(_ *hand, r *resource) error { return tool("usermod", "--comment", "someone", r.path) }},
		{"gpasswd --delete", func(_ *hand, r *resource) error {
			return tool("gpasswd", "--delete", r.path, accountName("g", accountIndex(r)))
		}},
		{"userdel", func(_ *hand, r *resource) error { return tool("userdel", r.path) }},
	},
}

var keyKind = &kind{
	name:         "authorized_key",
	generate:     func(g *gen, k *kind) { generateAccounts(g, k, "u", false) },
	modes:        []os.FileMode{0o600},
	manifestType: "authorized_key",
	entry: func(r *resource) string {
		return fmt.Sprintf("{user: %s, type: ssh-ed25519, key: %s, require: [user#%s]}", r.path, oracleKey(accountIndex(r)), r.path)
	},
	holds: func(r *resource) string {
		dir := "/home/" + r.path + "/.ssh"
		var st unix.Stat_t
		if err := unix.Lstat(dir, &st); err != nil {
			return err.Error()
		}
		if int(st.Uid) != uidOf(accountIndex(r)) || st.Mode&0o022 != 0 || st.Mode&unix.S_IFMT != unix.S_IFDIR {
			return fmt.Sprintf(".ssh uid %d mode %o", st.Uid, st.Mode)
		}
		b, err := os.ReadFile(filepath.Join(dir, "authorized_keys"))
		if err != nil {
			return err.Error()
		}
		if !strings.Contains(string(b), "ssh-ed25519 "+oracleKey(accountIndex(r))+" "+r.path+"\n") {
			return fmt.Sprintf("authorized_keys %.80q lacks the key", b)
		}
		return ""
	},
	tampers: []tamper{
		{"authorized_keys removed", func(_ *hand, r *resource) error { return os.Remove(keysPath(r)) }},
		{"authorized_keys rewritten", func(h *hand, r *resource) error {
			return os.WriteFile(keysPath(r), []byte("ssh-ed25519 "+oracleKey(-1)+" host\n"), 0o600)
		}},
		{".ssh moved away", func(h *hand, r *resource) error {
			return os.Rename(filepath.Dir(keysPath(r)), h.away(filepath.Dir(keysPath(r))))
		}},
		{".ssh made writable", func(_ *hand, r *resource) error { return os.Chmod(filepath.Dir(keysPath(r)), 0o777) }},
	},
}

// generateAccounts adds accountsPerTree accounts of kind k, numbered
// anew when alloc is set (groups), else as the groups generated just
// before (users and keys).
func generateAccounts(g *gen, k *kind, prefix string, alloc bool) {
	if !sandbox.Inside() {
		return
	}
	first := accountSeq
	if alloc {
		accountSeq += accountsPerTree
	} else {
		first -= accountsPerTree
	}
	for i := first; i < first+accountsPerTree; i++ {
		r := g.add(k, accountName(prefix, i), nil)
		r.owner, r.group = owners[0], groups[0]
	}
}

// accountIndex is the number of the account r names.
func accountIndex(r *resource) int {
	var i int
	fmt.Sscanf(strings.TrimPrefix(r.path, "ccmo-")[1:], "%d", &i)
	return i
}

func keysPath(r *resource) string { return "/home/" + r.path + "/.ssh/authorized_keys" }

// oracleKey is the i-th ed25519 public key's base64 blob.
func oracleKey(i int) string {
	var b []byte
	for _, part := range [][]byte{[]byte("ssh-ed25519"), fmt.Appendf(nil, "%032d", i+1)} {
		b = binary.BigEndian.AppendUint32(b, uint32(len(part)))
		b = append(b, part...)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// dbRecord is the fields of name's record in an account database.
func dbRecord(path, name string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if f := strings.Split(l, ":"); len(f) >= 4 && f[0] == name {
			return f
		}
	}
	return nil
}

// tool runs an account tool; its output is the error's.
func tool(name string, args ...string) error {
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v: %s", name, err, strings.TrimSpace(string(out)))
	}
	return nil
}
