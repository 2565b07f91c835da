package main_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/segmentio/ksuid"
)

// The attacks of issue 23 by a local user (uid 65534) on what ccm reads
// as root: each is refused with an error naming the path and its owner,
// and nothing outside the managed paths changes.

// ccmAttacked runs ccm in dir as ccmIn does, failing the test when it
// has not exited within a minute: an attack that got through may leave it
// running (an agent on the user's configuration) or hung (on a FIFO).
func ccmAttacked(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	r := runIn(t, exec.CommandContext(ctx, bin, args...), dir, env, "")
	if ctx.Err() != nil {
		t.Fatalf("ccm %s did not exit: the attack got through\n%s", strings.Join(args, " "), r.stderr)
	}
	return r
}

// refused checks that r exited with code, saying what is unsafe at where.
func refused(t *testing.T, r result, code int, where, why string) {
	t.Helper()
	if r.code != code || !strings.Contains(r.stderr, "unsafe ownership") || !strings.Contains(r.stderr, where+" "+why) {
		t.Fatalf("exit %d; want %d and %s refused (%s)\nstdout: %s\nstderr: %s", r.code, code, where, why, r.stdout, r.stderr)
	}
}

const byNobody = "is owned by uid 65534"

// reachable returns a directory of root's every user may reach (0755, as
// the ones above it), and in it a sticky one every user may write, as
// /tmp.
func reachable(t *testing.T) (dir, tmp string) {
	t.Helper()
	dir = filepath.Dir(resourcetest.NobodyHome(t))
	tmp = filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tmp, os.ModeSticky|0o777); err != nil {
		t.Fatal(err)
	}
	return dir, tmp
}

// absent fails the test when something is at path.
func absent(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("%s exists (%v): the attack changed the host", path, err)
	}
}

// marker is a manifest that makes one file, at out.
func marker(out string) string { return fileAt(out, "x") }

func TestManifestsAnotherUserCanChangeAreRefused(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	_, tmp := reachable(t)
	out := filepath.Join(t.TempDir(), "made")
	theirs := filepath.Join(tmp, "theirs.yaml")
	resourcetest.AsNobody(t, "write", theirs, marker(out))
	refused(t, ccmAttacked(t, "", nil, "run", theirs), 2, theirs, byNobody)
	// Root's own manifest in the user's directory: the user may replace it.
	ours := filepath.Join(home, "ours.yaml")
	if err := os.WriteFile(ours, []byte(marker(out)), 0o644); err != nil {
		t.Fatal(err)
	}
	refused(t, ccmAttacked(t, "", nil, "run", ours), 2, home, byNobody)
	refused(t, ccmAttacked(t, "", nil, "validate", ours), 2, home, byNobody)
	absent(t, out)

	r := ccmAttacked(t, "", nil, "run", "--allow-unsafe-ownership", theirs)
	if r.code != 0 || !strings.Contains(r.stderr, "unsafe ownership, used anyway (--allow-unsafe-ownership)") {
		t.Fatalf("allowed: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
}

// A child manifest made writable by others while the daemon runs: the
// user appends an exec; the reload is refused, the running graph stays.
func TestAChildManifestMadeWritableIsNotReloaded(t *testing.T) {
	dir, _ := reachable(t)
	child := filepath.Join(dir, "child", "manifest.yaml")
	if err := os.Mkdir(filepath.Dir(child), 0o755); err != nil {
		t.Fatal(err)
	}
	writeManifest(t, child, dir, marker("@/a"))
	m := manifest(t, dir, "- apply:\n    - child/manifest.yaml: {}\n")
	w := startWatch(t, m)
	w.waitFor("the child's file", func(ev engine.Event) bool { return ev.Name == dir+"/a" && ev.Trigger == engine.TriggerStartup })

	if err := os.Chmod(child, 0o666); err != nil {
		t.Fatal(err)
	}
	resourcetest.AsNobody(t, "append", child, "- exec:\n    - pwn:\n        command: /bin/touch "+dir+"/pwned\n")
	enginetest.Eventually(t, "the reload to be refused", func() bool {
		return strings.Contains(w.logs(), "reload failed") && strings.Contains(w.logs(), child+" is writable by every user (mode 0666)")
	})
	if err := os.Remove(dir + "/a"); err != nil {
		t.Fatal(err)
	}
	w.waitFor("the running graph to repair the child's file", func(ev engine.Event) bool { return ev.Name == dir+"/a" && ev.Changed })
	absent(t, dir+"/pwned")
}

func TestAnAgentConfigurationAnotherUserOwnsIsRefused(t *testing.T) {
	_, tmp := reachable(t)
	dir := t.TempDir()
	m := manifest(t, dir, marker("@/made"))
	cfg := filepath.Join(tmp, "agent.yaml")
	resourcetest.AsNobody(t, "write", cfg, "manifests:\n  - "+m+"\n")
	refused(t, ccmAttacked(t, "", nil, "agent", "--config", cfg, "--state-dir", t.TempDir()), 2, cfg, byNobody)
	absent(t, dir+"/made")
}

// forged is an event the user writes to pass as ccm's: the failed
// exec#/bin/false succeeded and changed, an hour from now, so it is the
// last.
func forged(t *testing.T) string {
	t.Helper()
	id := ksuid.New().String()
	b, err := json.Marshal(engine.Event{Protocol: engine.EventProtocol, EventID: id, Timestamp: time.Now().Add(time.Hour),
		Type: "exec", Name: "/bin/false", Changed: true, FinalEnsure: "present"})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSessionStoresAnotherUserPreparedAreRefused(t *testing.T) {
	_, tmp := reachable(t)
	store := filepath.Join(tmp, "session")
	resourcetest.AsNobody(t, "mkdir", store, "0777")
	dir := t.TempDir()
	env := []string{"CCM_SESSION_STORE=" + store}
	t.Run("new", func(t *testing.T) {
		refused(t, ccmAttacked(t, "", nil, "session", "new", "--directory", store), 1, store, byNobody)
		if names, _ := os.ReadDir(store); len(names) != 0 {
			t.Fatalf("wrote into the user's directory: %v", names)
		}
	})
	t.Run("a forged event", func(t *testing.T) {
		// The user forges the success of a resource that failed, to
		// satisfy a require and trigger a refresh.
		forgery := filepath.Join(store, "3Mforged.event")
		resourcetest.AsNobody(t, "write", forgery, forged(t))
		defer os.Remove(forgery)
		refused(t, ccmAttacked(t, dir, env, "ensure", "file", dir+"/gated", "--content", "x", "--require", "exec#/bin/false"), 2, store, byNobody)
		refused(t, ccmAttacked(t, dir, env, "ensure", "exec", "/bin/touch "+dir+"/refreshed", "--refresh-only", "--subscribe", "exec#/bin/false"), 2, store, byNobody)
		absent(t, dir+"/gated")
		absent(t, dir+"/refreshed")
	})
	// Even where the operator allows the user's store, what is not a
	// regular file is an error, not a hang or a read of /dev/zero.
	for name, attack := range map[string][]string{"a fifo": {"fifo"}, "a link to /dev/zero": {"symlink", "/dev/zero"}} {
		t.Run(name, func(t *testing.T) {
			x := filepath.Join(store, "x.event")
			resourcetest.AsNobody(t, attack[0], append(attack[1:], x)...)
			defer os.Remove(x)
			r := ccmAttacked(t, dir, env, "ensure", "--allow-unsafe-ownership", "file", dir+"/gated", "--content", "x", "--require", "exec#/bin/false")
			if r.code != 2 || !strings.Contains(r.stderr, x+": not a regular file") {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			absent(t, dir+"/gated")
		})
	}
}

func TestDataInAUsersWorkingDirectoryIsRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "motd")
	for _, name := range []string{".hiera", ".env"} {
		t.Run(name, func(t *testing.T) {
			home := resourcetest.NobodyHome(t)
			resourcetest.AsNobody(t, "write", filepath.Join(home, name), map[string]string{".hiera": "data:\n  motd: pwned\n", ".env": "MOTD=pwned\n"}[name])
			r := ccmAttacked(t, home, nil, "ensure", "file", out, "--content", "{{ lookup('data.motd', 'hello') }}\n")
			refused(t, r, 2, home, byNobody)
			absent(t, out)
		})
	}
}

func TestAStateDirectoryUnderAUsersIsRefused(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	resourcetest.AsNobody(t, "mkdir", home+"/var")
	dir := t.TempDir()
	m := manifest(t, dir, marker("@/made"))
	state := home + "/var/state"
	refused(t, ccmAttacked(t, "", nil, "run", "--state-dir", state, m), 2, home, byNobody)
	absent(t, state)
	absent(t, dir+"/made")
}

func TestTheControlSocketIsNotMadeInAUsersDirectory(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	resourcetest.AsNobody(t, "mkdir", home+"/run", "0700")
	dir := t.TempDir()
	r := ccmAttacked(t, "", nil, "run", "--watch", "--socket", home+"/run/ccm.sock", manifest(t, dir, marker("@/made")))
	refused(t, r, 2, home, byNobody)
	absent(t, home+"/run/ccm.sock")
}
