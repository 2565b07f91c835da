package authorizedkey

import (
	"encoding/binary"
	"reflect"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/textfile"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// TestParse: sshd's authorized_keys line grammar, options quoted with
// spaces and escaped quotes inside, and the lines that are not keys.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		line string
		want entry
		ok   bool
	}{
		{line: "ssh-ed25519 AAAA alice@laptop", want: entry{typ: "ssh-ed25519", key: "AAAA", comment: "alice@laptop"}, ok: true},
		{line: "  \tssh-rsa AAAA", want: entry{typ: "ssh-rsa", key: "AAAA"}, ok: true},
		{line: "ssh-rsa AAAA two  words", want: entry{typ: "ssh-rsa", key: "AAAA", comment: "two words"}, ok: true},
		{line: `no-pty,from="10.0.0.0/8" ssh-ed25519 AAAA c`, want: entry{options: `no-pty,from="10.0.0.0/8"`, typ: "ssh-ed25519", key: "AAAA", comment: "c"}, ok: true},
		{line: `command="echo \"a b\"",no-pty	ssh-ed25519 AAAA`, want: entry{options: `command="echo \"a b\"",no-pty`, typ: "ssh-ed25519", key: "AAAA"}, ok: true},
		{line: "sk-ssh-ed25519@openssh.com AAAA", want: entry{typ: "sk-ssh-ed25519@openssh.com", key: "AAAA"}, ok: true},
		{line: ""},
		{line: "   "},
		{line: "# ssh-ed25519 AAAA commented out"},
		{line: "  #ssh-ed25519 AAAA"},
		{line: "ssh-ed25519"},
		{line: "ssh-foo AAAA"},
		{line: "no-pty ssh-foo AAAA"},
		{line: `command="unterminated ssh-ed25519 AAAA`},
	} {
		got, ok := parse(c.line)
		if ok != c.ok || got != c.want {
			t.Errorf("parse(%q) = %+v, %v; want %+v, %v", c.line, got, ok, c.want, c.ok)
		}
		if ok && strings.TrimLeft(c.line, " \t") != c.line {
			continue
		}
		if ok && strings.Join(strings.Fields(got.String()), " ") != strings.Join(strings.Fields(c.line), " ") {
			t.Errorf("parse(%q).String() = %q, not the line back", c.line, got.String())
		}
	}
}

// TestEdit is the decision table of one key in a file: present or absent
// wanted, against no line, the same line, a line with other options or
// comment, and several lines holding the key.
func TestEdit(t *testing.T) {
	want := entry{options: "no-pty", typ: "ssh-ed25519", key: "KEY", comment: "admin"}
	const (
		line  = "no-pty ssh-ed25519 KEY admin"
		other = "ssh-ed25519 OTHER bob"
	)
	for _, c := range []struct {
		name   string
		lines  []string
		absent bool
		out    []string
		change change
	}{
		{name: "present, empty file", lines: nil, out: []string{line}, change: change{kind: textfile.Added, at: 1}},
		{name: "present, other keys", lines: []string{"# hosts", other}, out: []string{"# hosts", other, line}, change: change{kind: textfile.Added, at: 3}},
		{name: "present, same line", lines: []string{other, line}, out: []string{other, line}},
		{name: "present, other comment", lines: []string{other, "ssh-ed25519 KEY old"}, out: []string{other, line},
			change: change{kind: textfile.Replaced, at: 2, old: entry{typ: "ssh-ed25519", key: "KEY", comment: "old"}, n: 1}},
		{name: "present, same line twice", lines: []string{line, other, line}, out: []string{line, other},
			change: change{kind: textfile.Replaced, at: 1, old: want, n: 2}},
		{name: "present, commented-out key", lines: []string{"# " + line}, out: []string{"# " + line, line}, change: change{kind: textfile.Added, at: 2}},
		{name: "absent, no line", lines: []string{other}, absent: true, out: []string{other}},
		{name: "absent, empty file", absent: true},
		{name: "absent, one line", lines: []string{other, "ssh-ed25519 KEY x"}, absent: true, out: []string{other},
			change: change{kind: textfile.Removed, at: 2, old: entry{typ: "ssh-ed25519", key: "KEY", comment: "x"}, n: 1}},
		{name: "absent, every line", lines: []string{line, other, "from=\"a\" ssh-ed25519 KEY"}, absent: true, out: []string{other},
			change: change{kind: textfile.Removed, at: 1, old: want, n: 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := append([]string(nil), c.lines...)
			out, ch := edit(c.lines, want, c.absent)
			if !reflect.DeepEqual(out, c.out) && (len(out) != 0 || len(c.out) != 0) {
				t.Errorf("lines %q, want %q", out, c.out)
			}
			if ch != c.change {
				t.Errorf("change %+v, want %+v", ch, c.change)
			}
			if !reflect.DeepEqual(c.lines, before) {
				t.Errorf("edit changed its input to %q", c.lines)
			}
		})
	}
}

// TestDifferenceAndNoopMessage: what a check reports and what noop says
// for each kind of edit, with and without ~/.ssh to fix.
func TestDifferenceAndNoopMessage(t *testing.T) {
	k := &key{user: "u", want: entry{typ: "ssh-ed25519", key: "AAAAC3NzaC1lZDI1NTE5AAAAIKEY", comment: "admin"}}
	old := entry{options: "no-pty", typ: "ssh-ed25519", key: "AAAAC3NzaC1lZDI1NTE5AAAAIKEY", comment: "old"}
	const path = "/home/u/.ssh/authorized_keys"
	for _, c := range []struct {
		name string
		c    change
		dir  *dirDrift
		diff string
		noop string
	}{
		{name: "added", c: change{kind: textfile.Added, at: 3}, diff: "key absent → present", noop: "Would have added the key to " + path},
		{name: "removed", c: change{kind: textfile.Removed, at: 1, old: old, n: 1}, diff: "key present → absent", noop: "Would have removed the key from " + path},
		{name: "removed twice", c: change{kind: textfile.Removed, at: 1, old: old, n: 2}, diff: "key present → absent (2 lines)", noop: "Would have removed the key from " + path},
		{name: "replaced", c: change{kind: textfile.Replaced, at: 4, old: old, n: 1},
			diff: "key no-pty ssh-ed25519 …NTE5AAAAIKEY old → ssh-ed25519 …NTE5AAAAIKEY admin (line 4)", noop: "Would have replaced line 4 of " + path},
		{name: "replaced, duplicates", c: change{kind: textfile.Replaced, at: 2, old: old, n: 3},
			diff: "key no-pty ssh-ed25519 …NTE5AAAAIKEY old → ssh-ed25519 …NTE5AAAAIKEY admin (line 2, and 2 more lines holding the key to remove)", noop: "Would have replaced line 2 of " + path},
		{name: "dir missing", c: change{kind: textfile.Added, at: 1}, dir: &dirDrift{missing: true}, noop: "Would have created /home/u/.ssh; added the key to " + path},
		{name: "dir writable only", dir: &dirDrift{uid: 0, mode: 0o777}, noop: "Would have fixed the owner and mode of /home/u/.ssh"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.diff != "" {
				if got := k.difference(c.c).String(); got != c.diff {
					t.Errorf("difference %q, want %q", got, c.diff)
				}
			}
			v := &view{acct: &account{name: "u", home: "/home/u"}, dir: c.dir, c: c.c}
			if got := k.noopMessage(v); got != c.noop {
				t.Errorf("noop message %q, want %q", got, c.noop)
			}
		})
	}
	if d := (&dirDrift{uid: 7, mode: 0o775}).differences(); len(d) != 1 || d[0].String() != "ssh_dir uid 7 mode 0775 → the user's, no group or other write" {
		t.Errorf("dir drift %v", d)
	}
	if d := (&dirDrift{missing: true}).differences(); len(d) != 1 || d[0].String() != "ssh_dir absent → 0700" {
		t.Errorf("missing dir %v", d)
	}
}

// TestBlobType reads the type from the wire format and refuses blobs
// whose length lies.
func TestBlobType(t *testing.T) {
	wire := func(n uint32, name string) []byte {
		return append(binary.BigEndian.AppendUint32(nil, n), name...)
	}
	for _, c := range []struct {
		blob []byte
		want string
	}{
		{blob: wire(11, "ssh-ed25519rest"), want: "ssh-ed25519"},
		{blob: wire(7, "ssh-rsa"), want: "ssh-rsa"},
		{blob: wire(8, "ssh-rsa")},
		{blob: wire(0xffffffff, "ssh-rsa")},
		{blob: wire(4, "a\x00bc")},
		{blob: []byte{0, 0, 1}},
		{blob: nil},
	} {
		if got := blobType(c.blob); got != c.want {
			t.Errorf("blobType(%q) = %q, want %q", c.blob, got, c.want)
		}
	}
}

// TestFingerprint is ssh-keygen -l's form: SHA256 of the blob, base64
// without padding.
func TestFingerprint(t *testing.T) {
	// As ssh-keygen -lf printed it for this key.
	const key = "AAAAC3NzaC1lZDI1NTE5AAAAIPPi42OQ3JJVJOGAZfJpo7r1FgjDAI1Gf4iOEKuBJoz/"
	if got, want := fingerprint(key), "SHA256:Fu0bmfEUYqrTsVBwHl+BCs8iCX496qfHIb4JEdzh0g8"; got != want {
		t.Errorf("fingerprint %q, want %q", got, want)
	}
	if got := fingerprint("#!"); got != "invalid base64" {
		t.Errorf("fingerprint of bad base64 %q", got)
	}
}

// TestStatus is what a check reports for each state of the user, the
// directory and the key.
func TestStatus(t *testing.T) {
	acct := &account{name: "u", home: "/home/u"}
	for _, c := range []struct {
		name    string
		absent  bool
		v       view
		found   string
		desired bool
		reason  string
	}{
		{name: "no user, key wanted", v: view{}, found: Absent, reason: "user absent → u"},
		{name: "no user, key unwanted", absent: true, v: view{}, found: Absent, desired: true},
		{name: "key there", v: view{acct: acct}, found: Present, desired: true},
		{name: "key to add", v: view{acct: acct, c: change{kind: textfile.Added, at: 1}}, found: Absent, reason: "key absent → present"},
		{name: "key to replace", v: view{acct: acct, c: change{kind: textfile.Replaced, at: 1, old: entry{typ: "ssh-rsa", key: "K"}, n: 1}}, found: Present,
			reason: "key ssh-rsa K → ssh-ed25519 K c (line 1)"},
		{name: "key gone", absent: true, v: view{acct: acct}, found: Absent, desired: true},
		{name: "key to remove", absent: true, v: view{acct: acct, c: change{kind: textfile.Removed, at: 2, n: 1}}, found: Present, reason: "key present → absent"},
		{name: "dir to fix", v: view{acct: acct, dir: &dirDrift{missing: true}}, found: Present, reason: "ssh_dir absent → 0700"},
	} {
		k := &key{user: "u", want: entry{typ: "ssh-ed25519", key: "K", comment: "c"}, absent: c.absent}
		st := k.status(&c.v)
		if st.Ensure != c.found || st.Desired != c.desired || st.Reason() != c.reason {
			t.Errorf("%s: %+v (%q), want %s, desired %v, %q", c.name, st, st.Reason(), c.found, c.desired, c.reason)
		}
	}
}

// TestWantedLine: the line New wants: options joined by commas in their
// order, the comment the resource's name unless set, none when set
// empty.
func TestWantedLine(t *testing.T) {
	const blob = "AAAAC3NzaC1lZDI1NTE5AAAAIPPi42OQ3JJVJOGAZfJpo7r1FgjDAI1Gf4iOEKuBJoz/"
	for _, c := range []struct{ props, want string }{
		{"", "ssh-ed25519 " + blob + " admin@laptop"},
		{"comment: backup key", "ssh-ed25519 " + blob + " backup key"},
		{"comment: \"\"", "ssh-ed25519 " + blob},
		{"options: [no-pty, 'command=\"/usr/bin/backup --all\"', 'from=\"10.0.0.0/8\"']",
			`no-pty,command="/usr/bin/backup --all",from="10.0.0.0/8" ssh-ed25519 ` + blob + " admin@laptop"},
	} {
		inst := resourcetest.MustBuild(t, "authorized_key", "admin@laptop", "user: u\ntype: ssh-ed25519\nkey: "+blob+"\n"+c.props, t.TempDir())
		k := inst.Resource.(*key)
		if got := k.want.String(); got != c.want || k.user != "u" || k.absent || inst.Ensure != Present {
			t.Errorf("%q: %q (user %q absent %v ensure %s), want %q", c.props, got, k.user, k.absent, inst.Ensure, c.want)
		}
		if got, ok := parse(k.want.String()); !ok || got != k.want {
			t.Errorf("%q: the wanted line parses as %+v, %v", c.props, got, ok)
		}
	}
	if inst := resourcetest.MustBuild(t, "authorized_key", "k", "user: u\ntype: ssh-ed25519\nensure: absent\nkey: "+blob, t.TempDir()); !inst.Resource.(*key).absent || inst.Ensure != Absent {
		t.Errorf("absent key: %+v", inst)
	}
}
