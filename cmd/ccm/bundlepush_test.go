package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine/enginetest"
)

// siteDir writes a bundle directory holding manifest src (@ standing for
// dir).
func siteDir(t *testing.T, dir, src string) string {
	t.Helper()
	site := t.TempDir()
	writeManifest(t, filepath.Join(site, "manifest.yaml"), dir, src)
	return site
}

func TestPushRefusesWhatHostsWouldRefuse(t *testing.T) {
	f := newFleet(t)
	dir, keys := t.TempDir(), t.TempDir()
	f.must("bundle", "keygen", keys+"/signer")
	f.must("bundle", "keygen", keys+"/other")
	good := filepath.Join(t.TempDir(), "good.tgz")
	f.must("bundle", "pack", siteDir(t, dir, motd("good")), "-o", good, "--sign", keys+"/signer")
	plain := filepath.Join(t.TempDir(), "plain.tgz")
	if err := os.WriteFile(plain, []byte("ccm: {resources: []}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(t.TempDir(), "broken.tgz")
	f.must("bundle", "pack", siteDir(t, dir, "- file:\n    - @/x: {ensure: present, colour: red}\n"), "-o", broken)
	garbage := filepath.Join(t.TempDir(), "garbage.tgz")
	f.must("bundle", "pack", siteDir(t, dir, motd("garbage")), "-o", garbage)
	if err := os.WriteFile(garbage+".sig", []byte("zz\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(t.TempDir(), "stale.tgz")
	f.must("bundle", "pack", siteDir(t, dir, motd("one")), "-o", stale)
	f.must("bundle", "sign", stale, "--key", keys+"/signer")
	if err := os.WriteFile(stale, []byte(read(t, good)), 0o644); err != nil {
		t.Fatal(err)
	}
	otherKey := filepath.Join(t.TempDir(), "other.tgz")
	f.must("bundle", "pack", siteDir(t, dir, motd("other")), "-o", otherKey, "--sign", keys+"/other")
	cases := []struct {
		name, file, want string
		flags            []string
	}{
		{"plain YAML", plain, "not a gzipped tarball", nil},
		{"a manifest that does not compile", broken, "does not compile", nil},
		{"a garbage signature", garbage, "not a ccm signature", nil},
		{"a signature of other bytes", stale, "signs other bytes", nil},
		{"a key not trusted", otherKey, "not trusted", []string{"--trust", keys + "/signer.pub"}},
		{"unsigned under --trust", broken, "bundle: not signed", []string{"--trust", keys + "/signer.pub"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := f.ccm(append(append([]string{"bundle", "push"}, c.flags...), c.file, "obj://ccm/site.tgz")...)
			if r.code != 2 || !strings.Contains(r.stderr, c.want) || !strings.Contains(r.stderr, "hosts would refuse it") {
				t.Fatalf("exit %d, want 2 and %q\n%s", r.code, c.want, r.stderr)
			}
		})
	}
	if r := f.ccm("bundle", "history", "obj://ccm/site.tgz"); r.code == 0 {
		t.Fatalf("a refused push created the bucket:\n%s", r.stdout)
	}

	f.must("bundle", "push", "--trust", keys+"/signer.pub", good, "obj://ccm/site.tgz")
	t.Run("an older signature", func(t *testing.T) {
		older := filepath.Join(t.TempDir(), "older.tgz")
		f.must("bundle", "pack", siteDir(t, dir, motd("older")), "-o", older)
		f.must("bundle", "sign", older, "--key", keys+"/signer")
		f.must("bundle", "sign", good, "--key", keys+"/signer")
		f.must("bundle", "push", good, "obj://ccm/site.tgz")
		r := f.ccm("bundle", "push", older, "obj://ccm/site.tgz")
		if r.code != 2 || !strings.Contains(r.stderr, "hosts never go back") {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
	})
	t.Run("unsigned over signed", func(t *testing.T) {
		unsigned := filepath.Join(t.TempDir(), "unsigned.tgz")
		f.must("bundle", "pack", siteDir(t, dir, motd("unsigned")), "-o", unsigned)
		r := f.ccm("bundle", "push", unsigned, "obj://ccm/site.tgz")
		if r.code != 2 || !strings.Contains(r.stderr, "is not signed") {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
	})
}

func TestPackWithoutSignRemovesAStaleSignature(t *testing.T) {
	keys, dir := t.TempDir(), t.TempDir()
	ccm(t, "bundle", "keygen", keys+"/signer")
	out := filepath.Join(t.TempDir(), "site.tgz")
	if r := ccm(t, "bundle", "pack", siteDir(t, dir, motd("one")), "-o", out, "--sign", keys+"/signer"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r := ccm(t, "bundle", "pack", siteDir(t, dir, motd("two")), "-o", out)
	if r.code != 0 || !strings.Contains(r.stdout, "removed "+out+".sig") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(out + ".sig"); !os.IsNotExist(err) {
		t.Fatal("the stale signature is still there")
	}
}

func TestHistoryAndRollback(t *testing.T) {
	f := newFleet(t)
	dir, keys := t.TempDir(), t.TempDir()
	f.must("bundle", "keygen", keys+"/signer")
	const loc = "obj://ccm/site.tgz"
	for _, v := range []string{"one", "two", "three"} {
		f.publish(dir, loc, motd(v), keys+"/signer", "--history", "2")
	}
	out := f.must("bundle", "history", loc)
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[1], "2 ") || !strings.HasPrefix(lines[2], "3 *") || !strings.Contains(out, "signed by ") {
		t.Fatalf("history (2 kept):\n%s", out)
	}
	state := t.TempDir()
	w := f.watch("--state-dir", state, "--trust", keys+"/signer.pub", loc)
	w.converged(1)
	if !fileIs(dir+"/motd", "three\n", 0o644) {
		t.Fatal("three is not in force")
	}
	if r := f.ccm("bundle", "rollback", loc); r.code != 2 || !strings.Contains(r.stderr, "--key") {
		t.Fatalf("rollback of a signed revision without a key: exit %d\n%s", r.code, r.stderr)
	}
	if out := f.must("bundle", "rollback", loc, "--key", keys+"/signer"); !strings.Contains(out, "rolled obj://ccm/site.tgz back to revision 2") {
		t.Fatalf("rollback: %s", out)
	}
	enginetest.Eventually(t, "revision two back on the host", func() bool { return fileIs(dir+"/motd", "two\n", 0o644) })
	if out := f.must("bundle", "history", loc); !strings.Contains(out, "(rollback to 2)") {
		t.Fatalf("history after the rollback:\n%s", out)
	}
}
