package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine/enginetest"
	"go.yaml.in/yaml/v3"
)

// write writes body to path, creating its directory.
func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFactsCommand(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("everything as JSON", func(t *testing.T) {
		r := ccm(t, "facts", "--fact", "role=web")
		var f map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &f); err != nil || r.code != 0 {
			t.Fatalf("exit %d, output not JSON (%v):\n%s%s", r.code, err, r.stdout, r.stderr)
		}
		if f["hostname"] != host || f["role"] != "web" {
			t.Fatalf("facts hostname %v role %v; want %q and web", f["hostname"], f["role"], host)
		}
	})
	t.Run("query as YAML", func(t *testing.T) {
		if r := ccm(t, "facts", "host.info.hostname", "--yaml"); strings.TrimSpace(r.stdout) != host {
			t.Fatalf("facts host.info.hostname --yaml = %q (exit %d), want %q", r.stdout, r.code, host)
		}
	})
	t.Run("--fact wins over --facts", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "f.yaml")
		write(t, file, "env: file\nsite: one\n")
		if r := ccm(t, "facts", "--facts", file, "--fact", "env=flag", "env"); strings.TrimSpace(r.stdout) != `"flag"` {
			t.Fatalf("env = %q (exit %d), want \"flag\"", r.stdout, r.code)
		}
	})
	for _, tt := range []struct {
		name string
		args []string
		code int
	}{
		{"missing fact", []string{"facts", "nosuch"}, 1},
		{"gjson query finding nothing", []string{"facts", "nosuch.*"}, 1},
		{"gjson query", []string{"facts", "--fact", "role=web", `role|@reverse`}, 0},
		{"bad --fact", []string{"facts", "--fact", "novalue"}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if r := ccm(t, tt.args...); r.code != tt.code {
				t.Fatalf("exit %d, want %d\n%s", r.code, tt.code, r.stderr)
			}
		})
	}
}

func TestApplyRender(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"manifest.yaml": `
data:
  packages: [zsh]
  greeting: "hello ${ lookup('facts.role') }"
hierarchy:
  order: ["os:{{ lookup('facts.os') }}"]
  merge: deep
overrides:
  os:linux: {packages: [vim]}
ccm:
  pre_message: "on {{ Facts.role }}"
  resources_jet_file: resources.jet
`,
		"resources.jet": `[[ range data.packages ]]
- package:
    - "[[ . ]]":
        ensure: present
        note: "${ Data.greeting } $${HOME} ${ file('missing.txt') }"
[[ end ]]`,
		"extra.yaml": "data: {packages: [git]}\n",
	} {
		write(t, filepath.Join(dir, name), body)
	}
	r := ccm(t, "apply", "--render", "--fact", "role=web", "--fact", "os=linux", "--hiera", filepath.Join(dir, "extra.yaml"), filepath.Join(dir, "manifest.yaml"))
	var got struct {
		Data map[string]any `yaml:"data"`
		CCM  struct {
			PreMessage string                        `yaml:"pre_message"`
			Resources  []map[string][]map[string]any `yaml:"resources"`
		} `yaml:"ccm"`
	}
	if err := yaml.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 {
		t.Fatalf("exit %d, output not YAML (%v):\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if got.CCM.PreMessage != "on web" || len(got.CCM.Resources) != 3 {
		t.Fatalf("rendered pre_message %q and %d resources; want \"on web\" and 3 (zsh, vim, git)\n%s", got.CCM.PreMessage, len(got.CCM.Resources), r.stdout)
	}
	want := "${ Data.greeting } $${HOME} ${ file('missing.txt') }" // file() cannot resolve yet: kept as written
	if note := got.CCM.Resources[2]["package"][0]["git"].(map[string]any)["note"]; note != want {
		t.Errorf("unresolvable note = %q, want it as written %q", note, want)
	}
	if g := got.Data["greeting"]; g != "hello web" {
		t.Errorf("data greeting = %v, want \"hello web\"", g)
	}
}

// TestManifestWithDataAndDeferredTemplates runs a manifest written for
// upstream CCM: hiera data picked by facts, an exec producing a file, a
// file whose content reads it through a deferred ${ file() }, a shell
// command with an escaped ${, and resources skipped by control.
func TestManifestWithDataAndDeferredTemplates(t *testing.T) {
	dir := t.TempDir()
	owner, group := me(t)
	m := manifest(t, dir, strings.NewReplacer("OWNER", owner, "GROUP", group).Replace(`
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
            command: /bin/sh -c "echo ${ Data.greeting } on ${ lookup('facts.host.info.os') } > @/produced.txt"
            creates: @/produced.txt
        - shell-escape:
            command: echo "$${HOME}" > @/home.txt
            provider: shell
            environment: ["HOME=@/home"]
            creates: @/home.txt
    - file:
        - defaults:
            ensure: present
            owner: OWNER
            group: GROUP
            mode: "644"
        - @/consumer.txt:
            content: "got: ${ file('@/produced.txt') }packages: ${ join(Data.packages, ',') }\n"
            require: [exec#produce]
        - @/windows-only.txt:
            content: never
            control:
              if: lookup("facts.host.info.os") == "windows"
        - @/unless-web.txt:
            content: never
            control:
              unless: Facts.role == "web"
`))
	r := ccm(t, "apply", "--fact", "role=web", m)
	if r.code != 0 {
		t.Fatalf("apply exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for path, want := range map[string]string{
		"produced.txt": "hello web on linux\n",
		"consumer.txt": "got: hello web on linux\npackages: base,nginx\n",
		"home.txt":     filepath.Join(dir, "home") + "\n",
	} {
		if got := read(t, filepath.Join(dir, path)); got != want {
			t.Errorf("%s = %q, want %q", path, got, want)
		}
	}
	for _, skipped := range []string{"windows-only.txt", "unless-web.txt"} {
		if _, err := os.Stat(filepath.Join(dir, skipped)); !os.IsNotExist(err) {
			t.Errorf("%s exists (%v); control should have skipped it", skipped, err)
		}
		if !strings.Contains(r.stdout, "skipped   file#"+filepath.Join(dir, skipped)) {
			t.Errorf("%s not reported skipped:\n%s", skipped, r.stdout)
		}
	}
	for _, msg := range []string{"converging ", "done: 2 packages"} {
		if !strings.Contains(r.stdout, msg) {
			t.Errorf("output lacks %q:\n%s", msg, r.stdout)
		}
	}
}

// TestTemplateErrorFailsOnlyItsResource: upstream aborts the whole run on a
// template error in a deferred property; here only that resource fails.
func TestTemplateErrorFailsOnlyItsResource(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, `
ccm:
  resources:
    - file:
        - defaults: {ensure: present, owner: root, group: root, mode: "0644"}
        - @/bad.txt:
            content: "${ file('@/missing.txt') }"
        - @/good.txt:
            content: "${ Facts.host.info.os }"
`)
	r := ccm(t, "run", m)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := read(t, filepath.Join(dir, "good.txt")); got != "linux" {
		t.Errorf("good.txt = %q, want linux", got)
	}
	want := "failed    file#" + filepath.Join(dir, "bad.txt") + ": " + m + ":7:22: content: template ${ file('"
	if !strings.Contains(r.stdout, want) {
		t.Errorf("output lacks the positioned failure %q:\n%s", want, r.stdout)
	}
}

// TestWatchReloadsWhenHieraChanges: in watch mode a --hiera file is
// watched like the manifest; changing it reconverges what depends on it.
func TestWatchReloadsWhenHieraChanges(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "motd")
	layer := filepath.Join(dir, "hiera.yaml")
	m := manifest(t, dir, `
- file:
    - @/motd: {ensure: present, owner: root, group: root, mode: "0644", content: "${ Data.msg }"}
`)
	write(t, layer, "data: {msg: one}\n")
	w := startWatch(t, "--hiera", layer, m)
	w.converged(1)
	if got := read(t, target); got != "one" {
		t.Fatalf("motd = %q, want one", got)
	}
	write(t, layer, "data: {msg: two}\n")
	enginetest.Eventually(t, "motd rewritten from the changed --hiera file", func() bool {
		b, _ := os.ReadFile(target)
		return string(b) == "two"
	})
}
