package main_test

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine/enginetest"
	ccmrelease "github.com/reactive-ccm/ccm/engine/fleet/release"
)

// rolloutFleet is ten watching hosts h0…h9 of one signed bundle, each
// managing dir/HOST.motd.
type rolloutFleet struct {
	*fleet
	dir, keys string
	hosts     []string
	watchers  map[string]*watcher
}

const rolloutLoc = "obj://ccm/site.tgz"

func newRolloutFleet(t *testing.T) *rolloutFleet {
	t.Helper()
	f := &rolloutFleet{fleet: newFleet(t), dir: t.TempDir(), keys: t.TempDir(), watchers: map[string]*watcher{}}
	f.must("bundle", "keygen", f.keys+"/signer")
	f.must("bundle", "push", f.pack("one", 0), rolloutLoc)
	for i := range 10 {
		h := fmt.Sprintf("h%d", i)
		f.hosts = append(f.hosts, h)
		w := f.watch("--state-dir", t.TempDir(), "--trust", f.keys+"/signer.pub", "--report", "nats", "--hostname", h,
			"--fact", "host="+h, "--report-heartbeat", "300ms", rolloutLoc)
		w.converged(1)
		f.watchers[h] = w
	}
	return f
}

// pack makes a signed bundle writing content to each host's file; salt
// varies its bytes, hence its digest and the hosts a rollout of it picks.
func (f *rolloutFleet) pack(content string, salt int) string {
	f.t.Helper()
	src := f.t.TempDir()
	m := fmt.Sprintf("# %d\n- file:\n    - %s/{{ lookup('facts.host') }}.motd: {ensure: present, content: %q, owner: root, group: root, mode: \"0644\"}\n", salt, f.dir, content+"\n")
	if err := os.WriteFile(filepath.Join(src, "manifest.yaml"), []byte(m), 0o644); err != nil {
		f.t.Fatal(err)
	}
	out := filepath.Join(f.t.TempDir(), "site.tgz")
	f.must("bundle", "pack", src, "-o", out, "--sign", f.keys+"/signer")
	return out
}

// packForWave packs content with a salt that makes a rollout at percent
// pick between one and nine hosts, and returns those hosts.
func (f *rolloutFleet) packForWave(content string, percent float64) (string, map[string]bool) {
	f.t.Helper()
	for salt := 1; ; salt++ {
		file := f.pack(content, salt)
		sum := sha256.Sum256([]byte(read(f.t, file)))
		r := ccmrelease.Rollout{Digest: "SHA-256=" + base64.URLEncoding.EncodeToString(sum[:]), Percent: percent}
		wave := map[string]bool{}
		for _, h := range f.hosts {
			if ccmrelease.InWave(h, r) {
				wave[h] = true
			}
		}
		if len(wave) > 0 && len(wave) < len(f.hosts) {
			return file, wave
		}
	}
}

// motds reads every host's file.
func (f *rolloutFleet) motds() map[string]string {
	out := map[string]string{}
	for _, h := range f.hosts {
		b, _ := os.ReadFile(filepath.Join(f.dir, h+".motd"))
		out[h] = strings.TrimSpace(string(b))
	}
	return out
}

// settle waits until every host's file holds what want says; the logs
// of the hosts that do not in time say why.
func (f *rolloutFleet) settle(t *testing.T, what string, want func(host string) string) {
	t.Helper()
	var behind []string
	defer func() {
		for _, h := range behind {
			t.Logf("%s holds %q, not %q; its logs:\n%s", h, f.motds()[h], want(h), f.watchers[h].logs())
		}
	}()
	enginetest.Eventually(t, what, func() bool {
		behind = behind[:0]
		motds := f.motds()
		for _, h := range f.hosts {
			if motds[h] != want(h) {
				behind = append(behind, h)
			}
		}
		return len(behind) == 0
	})
}

func TestACanaryChangesExactlyTheHostsItNames(t *testing.T) {
	f := newRolloutFleet(t)
	file, wave := f.packForWave("two", 20)
	f.must("bundle", "push", file, rolloutLoc, "--canary", "20%")
	f.settle(t, "the wave on two", func(h string) string {
		if wave[h] {
			return "two"
		}
		return "one"
	})
	var out string
	enginetest.Eventually(t, "rollout status naming the wave", func() bool {
		out = f.ccm("rollout", "status", rolloutLoc).stdout
		return strings.Contains(out, fmt.Sprintf("%d of 10 hosts in the wave, %d applied it", len(wave), len(wave)))
	})
	for _, line := range strings.Split(out, "\n")[2:] {
		if fields := strings.Fields(line); len(fields) > 2 && (fields[1] == "true") != wave[fields[0]] {
			t.Fatalf("rollout status names other hosts than changed:\n%s", out)
		}
	}
	if r := f.ccm("fleet", "status"); r.code != 0 {
		t.Fatalf("fleet status during a healthy canary: exit %d\n%s", r.code, r.stdout)
	}

	t.Run("abort sends the wave back and changes nothing else", func(t *testing.T) {
		before := map[string]os.FileInfo{}
		for h := range f.motds() {
			before[h], _ = os.Stat(filepath.Join(f.dir, h+".motd"))
		}
		if r := f.ccm("rollout", "abort", rolloutLoc); r.code != 2 || !strings.Contains(r.stderr, "--key") {
			t.Fatalf("abort of a signed rollout without a key: exit %d\n%s", r.code, r.stderr)
		}
		f.must("rollout", "abort", rolloutLoc, "--key", f.keys+"/signer")
		f.settle(t, "every host on one", func(string) string { return "one" })
		enginetest.Eventually(t, "fleet status converged", func() bool { return f.ccm("fleet", "status").code == 0 })
		for h, fi := range before {
			now, _ := os.Stat(filepath.Join(f.dir, h+".motd"))
			if !wave[h] && !os.SameFile(fi, now) {
				t.Errorf("%s, outside the wave, was rewritten", h)
			}
		}
	})

	t.Run("promote gives it to every host", func(t *testing.T) {
		file, _ := f.packForWave("three", 20)
		f.must("bundle", "push", file, rolloutLoc, "--canary", "20%")
		f.must("rollout", "promote", rolloutLoc, "--to", "60%")
		f.must("rollout", "promote", rolloutLoc)
		f.settle(t, "every host on three", func(string) string { return "three" })
		if r := f.ccm("rollout", "status", rolloutLoc); r.code != 1 || !strings.Contains(r.stderr, "no rollout under way") {
			t.Fatalf("status after the promotion: exit %d\n%s", r.code, r.stderr)
		}
	})
}

func TestAutoRolloutWidensAndAbortsOnAFailure(t *testing.T) {
	f := newRolloutFleet(t)
	file, _ := f.packForWave("two", 20)
	out := f.must("bundle", "push", file, rolloutLoc, "--canary", "20%", "--auto", "40%,300ms", "--key", f.keys+"/signer")
	if !strings.Contains(out, "now goes to all of the hosts") {
		t.Fatalf("auto rollout:\n%s", out)
	}
	f.settle(t, "every host on two", func(string) string { return "two" })

	// A revision whose resource fails on the hosts of the wave.
	src := t.TempDir()
	writeManifest(t, filepath.Join(src, "manifest.yaml"), f.dir, "- exec:\n    - /bin/false: {}\n")
	bad := filepath.Join(t.TempDir(), "bad.tgz")
	f.must("bundle", "pack", src, "-o", bad, "--sign", f.keys+"/signer")
	r := f.ccm("bundle", "push", bad, rolloutLoc, "--canary", "50%", "--auto", "50%,300ms", "--key", f.keys+"/signer")
	if r.code != 1 || !strings.Contains(r.stderr, "aborted, its hosts go back") || !strings.Contains(r.stderr, " failing") {
		t.Fatalf("a failing canary: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	enginetest.Eventually(t, "every host back and converged", func() bool { return f.ccm("fleet", "status").code == 0 })
	f.settle(t, "every host on two", func(string) string { return "two" })
}
