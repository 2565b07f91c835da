package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// ccm runs the command line with args and returns its standard output.
func ccm(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

func exitCode(err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if err != nil {
		return exitBadArgs
	}
	return exitOK
}

func TestFactsCommand(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("everything as JSON", func(t *testing.T) {
		out, err := ccm(t, "facts", "--fact", "role=web")
		if err != nil {
			t.Fatal(err)
		}
		var f map[string]any
		if err := json.Unmarshal([]byte(out), &f); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, out)
		}
		if f["hostname"] != host || f["role"] != "web" {
			t.Fatalf("facts hostname %v role %v; want %q and web", f["hostname"], f["role"], host)
		}
	})
	t.Run("query as YAML", func(t *testing.T) {
		out, err := ccm(t, "facts", "host.info.hostname", "--yaml")
		if err != nil || strings.TrimSpace(out) != host {
			t.Fatalf("facts host.info.hostname --yaml = %q, %v; want %q", out, err, host)
		}
	})
	t.Run("facts file under --fact", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "f.yaml")
		writeFile(t, file, "env: file\nsite: one\n")
		out, err := ccm(t, "facts", "--facts", file, "--fact", "env=flag", "env")
		if err != nil || strings.TrimSpace(out) != `"flag"` {
			t.Fatalf("--fact over --facts = %q, %v; want \"flag\"", out, err)
		}
	})
	for _, tt := range []struct {
		name string
		args []string
		code int
	}{
		{"missing fact", []string{"facts", "nosuch"}, exitFailed},
		{"bad query", []string{"facts", "a.*"}, exitBadArgs},
		{"bad --fact", []string{"facts", "--fact", "novalue"}, exitBadArgs},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ccm(t, tt.args...); exitCode(err) != tt.code {
				t.Fatalf("exit %d (%v), want %d", exitCode(err), err, tt.code)
			}
		})
	}
}

func TestApplyRender(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
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
		".env":       "GREETING=\"quoted\"\n",
	}
	for name, body := range files {
		writeFile(t, filepath.Join(dir, name), body)
	}
	t.Chdir(dir)
	out, err := ccm(t, "apply", "--render", "--fact", "role=web", "--fact", "os=linux", "--hiera", "extra.yaml", "manifest.yaml")
	if err != nil {
		t.Fatalf("apply --render: %v\n%s", err, out)
	}
	var got struct {
		Data map[string]any `yaml:"data"`
		CCM  struct {
			PreMessage string                        `yaml:"pre_message"`
			Resources  []map[string][]map[string]any `yaml:"resources"`
		} `yaml:"ccm"`
	}
	if err := yaml.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("render output is not YAML: %v\n%s", err, out)
	}
	if got.CCM.PreMessage != "on web" || len(got.CCM.Resources) != 3 {
		t.Fatalf("rendered pre_message %q and %d resources; want \"on web\" and 3 (zsh, vim, git)\n%s", got.CCM.PreMessage, len(got.CCM.Resources), out)
	}
	want := "${ Data.greeting } $${HOME} ${ file('missing.txt') }" // file() cannot resolve yet: kept as written
	note := got.CCM.Resources[2]["package"][0]["git"].(map[string]any)["note"]
	if note != want {
		t.Errorf("unresolvable note = %q, want it as written %q", note, want)
	}
	if g := got.Data["greeting"]; g != "hello web" {
		t.Errorf("data greeting = %v, want \"hello web\"", g)
	}
}

func TestDotEnv(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	body := "# comment\nexport A=\"quoted value\"\nB='single'\nC=plain\n\nD=\"unbalanced\n"
	writeFile(t, ".env", body)
	env, err := environ(true)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"A": "quoted value", "B": "single", "C": "plain", "D": `"unbalanced`} {
		if env[k] != want {
			t.Errorf(".env %s = %q, want %q", k, env[k], want)
		}
	}
	writeFile(t, ".env", "novalue\n")
	if _, err := environ(true); err == nil || !strings.Contains(err.Error(), ".env:1") {
		t.Errorf("bad .env line: %v, want a positioned error", err)
	}
}
