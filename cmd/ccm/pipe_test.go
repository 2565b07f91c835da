package main_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// response is `ccm ensure api pipe`'s answer.
type response struct {
	Protocol string         `json:"protocol" yaml:"protocol"`
	Error    string         `json:"error" yaml:"error"`
	State    map[string]any `json:"state" yaml:"state"`
}

func pipe(t *testing.T, dir, req string, args ...string) response {
	t.Helper()
	asYAML := false
	for _, a := range args {
		asYAML = asYAML || a == "--yaml"
	}
	r := ccmIn(t, dir, []string{"CCM_SESSION_STORE="}, req, append([]string{"ensure", "api", "pipe"}, args...)...)
	var resp response
	var err error
	if asYAML {
		err = yaml.Unmarshal([]byte(r.stdout), &resp)
	} else {
		err = json.Unmarshal([]byte(r.stdout), &resp)
	}
	if r.code != 0 || err != nil || resp.Protocol != "io.choria.ccm.v1.resource.ensure.response" {
		t.Fatalf("exit %d, %v: %q (stderr %q)", r.code, err, r.stdout, r.stderr)
	}
	return resp
}

// TestPipeDocsExamples replays upstream's JSON API docs.
func TestPipeDocsExamples(t *testing.T) {
	dir := t.TempDir()
	motd := filepath.Join(dir, "motd")
	t.Run("create a file (JSON)", func(t *testing.T) {
		resp := pipe(t, dir, `{
  "protocol": "io.choria.ccm.v1.resource.ensure.request",
  "type": "file",
  "properties": {"name": "`+motd+`", "ensure": "present", "content": "Welcome to this server\n", "owner": "root", "group": "root", "mode": "0644"}
}`)
		if resp.Error != "" || resp.State["changed"] != true || resp.State["protocol"] != "io.choria.ccm.v1.transaction.event" || resp.State["provider"] != "posix" {
			t.Fatalf("%+v", resp)
		}
		if read(t, motd) != "Welcome to this server\n" {
			t.Fatal("not written")
		}
	})
	t.Run("a YAML request, a YAML response", func(t *testing.T) {
		resp := pipe(t, dir, "protocol: io.choria.ccm.v1.resource.ensure.request\ntype: exec\nproperties:\n  name: /bin/true\n  creates: "+motd+"\n", "--yaml")
		if resp.Error != "" || resp.State["changed"] != false || resp.State["name"] != "/bin/true" {
			t.Fatalf("%+v", resp)
		}
	})
	t.Run("dry-run mode", func(t *testing.T) {
		resp := pipe(t, dir, `{"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "file", "properties": {"name": "`+motd+`", "ensure": "absent"}}`, "--noop")
		if resp.State["noop"] != true || resp.State["noop_message"] != "Would have removed the file" || read(t, motd) == "" {
			t.Fatalf("%+v", resp)
		}
	})
	for _, tt := range []struct{ name, req, want string }{
		{"wrong protocol", `{"protocol": "wrong.protocol", "type": "package", "properties": {"name": "nginx"}}`, `invalid protocol "wrong.protocol"`},
		{"missing type", `{"protocol": "io.choria.ccm.v1.resource.ensure.request", "properties": {"name": "nginx"}}`, "missing type in request"},
		{"missing properties", `{"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "package"}`, "missing properties in request"},
		{"unknown type", `{"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "nosuch", "properties": {"name": "x"}}`, `unknown resource type "nosuch"`},
		{"manifest-only type", `{"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "apply", "properties": {"name": "x.yaml"}}`, "apply resources are written in manifests only"},
		{"not JSON or YAML", `{"protocol": `, "invalid request"},
		{"a bad property, positioned", "protocol: io.choria.ccm.v1.resource.ensure.request\ntype: file\nproperties:\n  name: " + motd + "\n  ensure: present\n  mode: \"999\"\n  owner: root\n  group: root\n",
			`request:6:9: mode: "999" is not an octal mode`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp := pipe(t, dir, tt.req)
			if !strings.Contains(resp.Error, tt.want) || resp.State != nil {
				t.Fatalf("%+v, want the error %q", resp, tt.want)
			}
		})
	}
}
