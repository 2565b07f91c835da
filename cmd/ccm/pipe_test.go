package main_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph/schema/schematest"
	"github.com/santhosh-tekuri/jsonschema/v6"
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

// TestResponseSchema: `ccm schema response` has every event field of
// upstream's resource_ensure_response schema, and holds the responses
// ccm writes: a change, a failure with its health check, an error.
func TestResponseSchema(t *testing.T) {
	r := ccm(t, "schema", "response")
	var doc any
	if err := json.Unmarshal([]byte(r.stdout), &doc); r.code != 0 || err != nil {
		t.Fatalf("exit %d, %v", r.code, err)
	}
	var s struct {
		Definitions map[string]struct{ Properties map[string]any }
	}
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"protocol", "event_id", "timestamp", "type", "provider", "name", "alias", "requested_ensure", "final_ensure", "duration",
		"properties", "status", "noop_message", "health_check", "health_check_only", "error", "changed", "refreshed", "failed", "skipped", "noop", "unmet_requirements"} {
		if _, ok := s.Definitions["transactionEvent"].Properties[k]; !ok {
			t.Errorf("the event lacks upstream's %q", k)
		}
	}
	sch := schematest.Compile(t, doc)
	dir := t.TempDir()
	for name, req := range map[string]string{
		"a change":  `{"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "exec", "properties": {"name": "/bin/true", "health_checks": [{"command": "/bin/true"}]}}`,
		"a failure": `{"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "file", "properties": {"name": "` + dir + `/no/x", "ensure": "present", "content": "x", "owner": "root", "group": "root", "mode": "0644"}}`,
		"an error":  `{"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "nosuch", "properties": {"name": "x"}}`,
	} {
		out := ccmIn(t, dir, []string{"CCM_SESSION_STORE="}, req, "ensure", "api", "pipe")
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(out.stdout))
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out.stdout)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("%s: the schema refuses ccm's response: %v\n%s", name, err, out.stdout)
		}
	}
}
