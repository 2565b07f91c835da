package main

import (
	"context"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestManifestWithDataAndDeferredTemplates runs a manifest written for
// upstream CCM: hiera data picked by facts, an exec producing a file, a
// file whose content reads it through a deferred ${ file() }, a shell
// command with an escaped ${, and resources skipped by control.
func TestManifestWithDataAndDeferredTemplates(t *testing.T) {
	dir := t.TempDir()
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	g, err := user.LookupGroupId(u.Gid)
	if err != nil {
		t.Fatal(err)
	}
	manifest := strings.NewReplacer("DIR", dir, "OWNER", u.Username, "GROUP", g.Name).Replace(`
data:
  greeting: hello
  packages: [base]
hierarchy:
  order:
    - "role:${ lookup('facts.role') }"
    - "site:${ lookup('facts.site') }"
  merge: deep
overrides:
  role:web:
    greeting: "hello web"
    packages: [nginx]
  site:none:
    greeting: never
ccm:
  fail_on_error: true
  pre_message: "converging ${ Facts.hostname }"
  post_message: "done: ${ len(Data.packages) } packages"
  resources:
    - exec:
        - produce:
            command: /bin/sh -c "echo ${ Data.greeting } on ${ lookup('facts.host.info.os') } > DIR/produced.txt"
            creates: DIR/produced.txt
        - shell-escape:
            command: echo "$${HOME}" > DIR/home.txt
            provider: shell
            environment: ["HOME=DIR/home"]
            creates: DIR/home.txt
    - file:
        - defaults:
            ensure: present
            owner: OWNER
            group: GROUP
            mode: "644"
        - DIR/consumer.txt:
            content: "got: ${ file('DIR/produced.txt') }packages: ${ join(Data.packages, ',') }\n"
            require: [exec#produce]
        - DIR/windows-only.txt:
            content: never
            control:
              if: lookup("facts.host.info.os") == "windows"
        - DIR/unless-web.txt:
            content: never
            control:
              unless: Facts.role == "web"
`)
	file := filepath.Join(dir, "manifest.yaml")
	writeFile(t, file, manifest)
	out, err := ccm(t, "apply", "--fact", "role=web", file)
	if err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	for path, want := range map[string]string{
		"produced.txt": "hello web on linux\n",
		"consumer.txt": "got: hello web on linux\npackages: base,nginx\n",
		"home.txt":     filepath.Join(dir, "home") + "\n",
	} {
		b, err := os.ReadFile(filepath.Join(dir, path))
		if err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", path, b, err, want)
		}
	}
	for _, skipped := range []string{"windows-only.txt", "unless-web.txt"} {
		if _, err := os.Stat(filepath.Join(dir, skipped)); !os.IsNotExist(err) {
			t.Errorf("%s exists (%v); control should have skipped it", skipped, err)
		}
		if !strings.Contains(out, "skipped   file#"+filepath.Join(dir, skipped)) {
			t.Errorf("%s not reported skipped:\n%s", skipped, out)
		}
	}
	for _, msg := range []string{"converging ", "done: 2 packages"} {
		if !strings.Contains(out, msg) {
			t.Errorf("output lacks %q:\n%s", msg, out)
		}
	}
}

// TestTemplateErrorFailsOnlyItsResource: upstream aborts the whole run on a
// template error in a deferred property; here only that resource fails.
func TestTemplateErrorFailsOnlyItsResource(t *testing.T) {
	dir := t.TempDir()
	manifest := strings.NewReplacer("DIR", dir).Replace(`
ccm:
  resources:
    - file:
        - defaults: {ensure: present, owner: root, group: root, mode: "0644"}
        - DIR/bad.txt:
            content: "${ file('DIR/missing.txt') }"
        - DIR/good.txt:
            content: "${ Facts.host.info.os }"
`)
	file := filepath.Join(dir, "manifest.yaml")
	writeFile(t, file, manifest)
	out, err := ccm(t, "run", file)
	if exitCode(err) != exitFailed {
		t.Fatalf("exit %d (%v), want %d\n%s", exitCode(err), err, exitFailed, out)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "good.txt")); err != nil || string(b) != "linux" {
		t.Errorf("good.txt = %q, %v; want linux", b, err)
	}
	want := "failed    file#" + filepath.Join(dir, "bad.txt") + ": " + file + ":7:22: content: template ${ file('"
	if !strings.Contains(out, want) {
		t.Errorf("output lacks the positioned failure %q:\n%s", want, out)
	}
}

// TestWatchReloadsWhenHieraChanges: in watch mode a --hiera file is
// watched like the manifest; changing it reconverges what depends on it.
func TestWatchReloadsWhenHieraChanges(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "motd")
	manifest := filepath.Join(dir, "manifest.yaml")
	layer := filepath.Join(dir, "hiera.yaml")
	writeFile(t, manifest, strings.ReplaceAll(`
ccm:
  resources:
    - file:
        - TARGET: {ensure: present, owner: root, group: root, mode: "0644", content: "${ Data.msg }"}
`, "TARGET", target))
	writeFile(t, layer, "data: {msg: one}\n")
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		root := newRoot()
		root.SetOut(io.Discard)
		root.SetArgs([]string{"run", "--watch", "--log-level", "error", "--hiera", layer, manifest})
		done <- root.ExecuteContext(ctx)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("watch: %v", err)
		}
	}()
	waitContent(t, target, "one")
	writeFile(t, layer, "data: {msg: two}\n")
	waitContent(t, target, "two")
}

func writeFile(t *testing.T, p, body string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitContent waits up to ten seconds for p to hold want.
func waitContent(t *testing.T, p, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(p)
		if string(b) == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s = %q after 10s, want %q", p, b, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
