package main_test

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
)

// secretManifest manages a plain file and, marked sensitive, a file and
// an exec whose values come from a secret in the data.
const secretManifest = `
data:
  password: hunter2-secret
ccm:
  resources:
    - file:
        - defaults: {owner: root, group: root, mode: "0644", ensure: present}
        - @/plain.conf:
            content: "port = 80\nworkers = 4\n"
        - @/secret.conf:
            content: "password={{ lookup('data.password') }}\n"
            sensitive: true
    - exec:
        - leaky:
            command: "/nonexistent/{{ lookup('data.password') }}"
            sensitive: true
`

// jsonEvents decodes the events of a --json run.
func jsonEvents(t *testing.T, stdout string) map[string]engine.Event {
	t.Helper()
	out := map[string]engine.Event{}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		var ev engine.Event
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Protocol == engine.EventProtocol {
			out[ev.ID()] = ev
		}
	}
	return out
}

func TestDiffShowsContentChangesAndSensitiveHidesThem(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, secretManifest)
	for path, content := range map[string]string{"plain.conf": "port = 81\nworkers = 4\n", "secret.conf": "password=old-hunter\n"} {
		if err := os.WriteFile(dir+"/"+path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := ccm(t, "run", "--diff", "--json", m)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (the exec fails)\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, secret := range []string{"hunter2-secret", "old-hunter"} {
		if strings.Contains(r.stdout+r.stderr, secret) {
			t.Fatalf("the secret %q was shown:\n%s%s", secret, r.stdout, r.stderr)
		}
	}
	evs := jsonEvents(t, r.stdout)
	plain := evs["file#"+dir+"/plain.conf"].Changes
	if len(plain) != 1 || plain[0].Note != "+1 −1 lines" || !strings.Contains(plain[0].Diff, "-port = 81\n+port = 80\n") {
		t.Fatalf("plain changes = %+v", plain)
	}
	secret := evs["file#"+dir+"/secret.conf"].Changes
	if len(secret) != 1 || secret[0].Observed != "[redacted]" || secret[0].Desired != "[redacted]" || secret[0].Diff != "" || secret[0].Note != "" {
		t.Fatalf("sensitive changes = %+v", secret)
	}
	leaky := evs["exec#leaky"]
	if !leaky.Failed || !strings.Contains(strings.Join(leaky.Error, ""), "running [redacted]") {
		t.Fatalf("sensitive error = %q", leaky.Error)
	}
	if got := read(t, dir+"/secret.conf"); got != "password=hunter2-secret\n" {
		t.Fatalf("secret.conf = %q: sensitive hides values, it still manages them", got)
	}
}

func TestHumanDiffIsIndentedUnderItsLine(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, secretManifest)
	if err := os.WriteFile(dir+"/plain.conf", []byte("port = 81\nworkers = 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := ccm(t, "run", "--diff", m)
	want := "changed   file#" + dir + "/plain.conf: content "
	i := strings.Index(r.stdout, want)
	if i < 0 || !strings.Contains(r.stdout[i:], "(+1 −1 lines)") || !strings.Contains(r.stdout[i:], "\n    -port = 81\n    +port = 80\n") {
		t.Fatalf("output:\n%s", r.stdout)
	}
	if r = ccm(t, "run", m); strings.Contains(r.stdout, "+port") {
		t.Fatalf("a diff without --diff:\n%s", r.stdout)
	}
}

func TestRenderRedactsSensitiveAndWarnsOfUnresolvedTemplates(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, secretManifest+`
    - file:
        - @/later.conf:
            ensure: present
            owner: root
            group: root
            mode: "0644"
            content: "${ file('@/written-later') }"
`)
	r := ccm(t, "apply", "--render", m)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "[redacted]") || strings.Contains(r.stdout, "password=hunter2") || strings.Contains(r.stdout, "/nonexistent/hunter2") {
		t.Fatalf("render:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "port = 80") {
		t.Fatalf("the plain file's content is not shown:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "warning: 1 templates could not be resolved") || !strings.Contains(r.stderr, "manifest.yaml:") {
		t.Fatalf("no warning for the unresolved template:\n%s", r.stderr)
	}
}

// TestSensitiveExecOutputIsNotLogged: what a sensitive command prints can
// carry what it was given, so logoutput counts its lines instead.
func TestSensitiveExecOutputIsNotLogged(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, `
data:
  password: hunter2-secret
ccm:
  resources:
    - exec:
        - show:
            command: "/bin/sh -c 'echo {{ lookup(\"data.password\") }}; echo derived-token >&2'"
            logoutput: true
            sensitive: true
        - plain:
            command: "/bin/echo plain-output"
            logoutput: true
`)
	r := ccm(t, "run", m)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	out := r.stdout + r.stderr
	for _, secret := range []string{"hunter2-secret", "derived-token"} {
		if strings.Contains(out, secret) {
			t.Errorf("output shows %q:\n%s", secret, out)
		}
	}
	if !strings.Contains(out, "output not logged: the exec is sensitive") || !strings.Contains(out, "lines=2") {
		t.Errorf("no line count for the sensitive exec's output:\n%s", out)
	}
	if !strings.Contains(out, "plain-output") {
		t.Errorf("a plain exec's logoutput is not logged:\n%s", out)
	}
}
