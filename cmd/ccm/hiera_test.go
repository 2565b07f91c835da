package main_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// upstreamHiera is the data.json of upstream's hiera docs.
const upstreamHiera = `{
    "hierarchy": {"order": ["fqdn:${ lookup('facts.fqdn') }"]},
    "data": {"test": "value"},
    "overrides": {"fqdn:my.fqdn.com": {"test": "override"}}
}`

// TestHieraDocsExamples replays upstream's `ccm hiera` examples.
func TestHieraDocsExamples(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "data.json"), upstreamHiera)
	tests := []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"a fact on the command line selects the override", nil, []string{"parse", "data.json", "fqdn=my.fqdn.com"}, "{\n  \"test\": \"override\"\n}\n"},
		{"another fact does not", nil, []string{"parse", "data.json", "fqdn=other.fqdn.com"}, "{\n  \"test\": \"value\"\n}\n"},
		{"--yaml", nil, []string{"parse", "data.json", "fqdn=other.fqdn.com", "--yaml"}, "test: value\n"},
		{"--env", nil, []string{"parse", "data.json", "fqdn=other.fqdn.com", "--env"}, "HIERA_TEST=value\n"},
		{"--env-prefix", nil, []string{"parse", "data.json", "--env", "--env-prefix", "APP"}, "APP_TEST=value\n"},
		{"resolve and --query", nil, []string{"resolve", "data.json", "fqdn=my.fqdn.com", "--query", "test"}, "\"override\"\n"},
		{"-S is accepted: host facts are always there", nil, []string{"parse", "data.json", "-S"}, "{\n  \"test\": \"value\"\n}\n"},
		{"-E takes facts from the environment", []string{"fqdn=my.fqdn.com"}, []string{"parse", "data.json", "-E"}, "{\n  \"test\": \"override\"\n}\n"},
		{"$HIERA_INPUT", []string{"HIERA_INPUT=data.json"}, []string{"parse", "fqdn=my.fqdn.com", "--yaml"}, "test: override\n"},
		{"-D and --data-file", nil, []string{"parse", "data.json", "-D", "extra.port=80", "--yaml"}, "extra:\n  port: \"80\"\ntest: value\n"},
		{"hiera facts --query", nil, []string{"facts", "role=web", "--query", "role"}, "web\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ccmIn(t, dir, tt.env, "", append([]string{"hiera"}, tt.args...)...)
			if r.code != 0 || r.stdout != tt.want {
				t.Fatalf("exit %d, output %q (stderr %q); want %q", r.code, r.stdout, r.stderr, tt.want)
			}
		})
	}
	t.Run("--facts file and a manifest's data", func(t *testing.T) {
		write(t, filepath.Join(dir, "facts.yaml"), "role: db\n")
		write(t, filepath.Join(dir, "m.yaml"), "data: {port: 80}\nhierarchy: {order: ['role:${ lookup(\"facts.role\") }']}\noverrides: {'role:db': {port: 5432}}\n"+
			"ccm: {resources: [{exec: [{/bin/true: {}}]}]}\n")
		r := ccmIn(t, dir, nil, "", "hiera", "parse", "m.yaml", "--facts", "facts.yaml")
		var got map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || got["port"] != float64(5432) {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("a bad input is unusable", func(t *testing.T) {
		write(t, filepath.Join(dir, "bad.yaml"), "hierarchy: {merge: sideways}\n")
		r := ccmIn(t, dir, nil, "", "hiera", "parse", "bad.yaml")
		if r.code != 2 || !strings.Contains(r.stderr, "hierarchy.merge must be first or deep") {
			t.Fatalf("%+v", r)
		}
	})
}

// TestStatusDocsExamples replays upstream's `ccm status TYPE NAME`.
func TestStatusDocsExamples(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "motd")
	write(t, f, "hello\n")
	t.Run("file, YAML", func(t *testing.T) {
		r := ccm(t, "status", "file", f)
		for _, want := range []string{"name: " + f + "\n", "ensure: present\n", "checksum: 5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03\n", "mode: \"0644\"\n", "provider: posix\n", "size: 6\n"} {
			if r.code != 0 || !strings.Contains(r.stdout, want) {
				t.Fatalf("%+v lacks %q", r, want)
			}
		}
	})
	t.Run("file, JSON, absent", func(t *testing.T) {
		r := ccm(t, "info", "file", filepath.Join(dir, "nothere"), "--json")
		var got map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || got["ensure"] != "absent" {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("package", func(t *testing.T) {
		r := ccm(t, "status", "package", "ccm-fixture-none", "--json")
		if strings.Contains(r.stderr, "no suitable provider") {
			t.Skip("no package manager here")
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || got["ensure"] != "absent" || got["version"] != "" {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("types without status", func(t *testing.T) {
		r := ccm(t, "status", "exec", "/bin/true")
		if r.code != 2 || !strings.Contains(r.stderr, "status shows: "+strings.Join(inspectable(), ", ")+"\n") {
			t.Fatalf("%+v", r)
		}
	})
}
