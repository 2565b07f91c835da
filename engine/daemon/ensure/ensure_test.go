package ensure_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/ensure"
	"github.com/reactive-ccm/ccm/engine/daemon/session"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/graph/schema/schematest"
	"github.com/reactive-ccm/ccm/resources/document"
	_ "github.com/reactive-ccm/ccm/resources/exec"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

const request = `{"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "exec", "properties": %s}`

// converge reads the exec request of props and converges it in store.
func converge(t *testing.T, store *session.Store, props string) (*engine.Event, error) {
	t.Helper()
	typ, node, err := ensure.ReadRequest(strings.NewReader(strings.Replace(request, "%s", props, 1)))
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.LoadEntry(graph.Entry{Type: typ, Props: node, File: "request", Dir: t.TempDir()},
		graph.Options{External: ensure.References(store)})
	if err != nil {
		return nil, err
	}
	return ensure.Converge(t.Context(), g, engine.Options{}, store)
}

func TestConvergeRecordsAndResolvesReferences(t *testing.T) {
	store, err := session.Create(filepath.Join(t.TempDir(), "session"))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := converge(t, store, `{"name": "/bin/false", "alias": "broken"}`)
	if err != nil || !ensure.Failed(ev) {
		t.Fatalf("event %+v, %v; want a failed run", ev, err)
	}
	if last, err := store.Last("exec#broken"); err != nil || last.EventID != ev.EventID {
		t.Fatalf("the session holds %+v, %v; want the event %s", last, err, ev.EventID)
	}
	ev, err = converge(t, store, `{"name": "/bin/true", "require": ["exec#broken"]}`)
	if err != nil {
		t.Fatal(err)
	}
	if !ensure.Failed(ev) || !ev.Skipped || len(ev.UnmetRequirements) != 1 {
		t.Fatalf("event %+v; want it skipped for the recorded failure", ev)
	}
	ev, err = converge(t, store, `{"name": "/bin/true"}`)
	if err != nil || ensure.Failed(ev) || !ev.Changed {
		t.Fatalf("event %+v, %v; want a run", ev, err)
	}
}

func TestReferenceWithoutSession(t *testing.T) {
	_, err := converge(t, nil, `{"name": "/bin/true", "require": ["exec#earlier"]}`)
	if err == nil || !strings.Contains(err.Error(), ensure.ErrNoSession.Error()) {
		t.Fatalf("got %v, want ErrNoSession's message", err)
	}
}

func TestConvergeWithoutEvent(t *testing.T) {
	// A run that ends before the resource ran (an interrupt) gives no event.
	if _, err := ensure.Converge(t.Context(), &graph.Graph{}, engine.Options{}, nil); !errors.Is(err, ensure.ErrInterrupted) {
		t.Fatalf("got %v, want ErrInterrupted", err)
	}
}

func TestReadRequest(t *testing.T) {
	for _, tc := range []struct {
		name, req, want string
	}{
		{"JSON", strings.Replace(request, "%s", `{"name": "x"}`, 1), ""},
		{"YAML", "protocol: io.choria.ccm.v1.resource.ensure.request\ntype: exec\nproperties:\n  name: x\n", ""},
		{"wrong protocol", `{"protocol": "x", "type": "exec", "properties": {"name": "x"}}`, `invalid protocol "x"`},
		{"too large", `{"name": "` + strings.Repeat("x", document.MaxSize) + `"}`, "more than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			typ, props, err := ensure.ReadRequest(strings.NewReader(tc.req))
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("got %v, want an error containing %q", err, tc.want)
				}
				return
			}
			if err != nil || typ != "exec" || props.Kind != yaml.MappingNode {
				t.Fatalf("got %q, %v, %v", typ, props, err)
			}
		})
	}
}

func TestResponseWrite(t *testing.T) {
	resp := ensure.Respond(nil, errors.New("no such type"))
	for asYAML, want := range map[bool]string{
		false: "{\n  \"protocol\": \"io.choria.ccm.v1.resource.ensure.response\",\n  \"error\": \"no such type\"\n}\n",
		true:  "protocol: io.choria.ccm.v1.resource.ensure.response\nerror: no such type\n",
	} {
		var b bytes.Buffer
		if err := resp.Write(&b, asYAML); err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Errorf("yaml=%v: got\n%s\nwant\n%s", asYAML, b.String(), want)
		}
	}
	if resp := ensure.Respond(&engine.Event{Name: "x"}, nil); resp.Error != "" || resp.State == nil {
		t.Errorf("a run's response is %+v", resp)
	}
}

// TestResponseSchemaHoldsResponses: the schema takes the responses Write
// gives, a run's and an error's, and refuses one with both.
func TestResponseSchemaHoldsResponses(t *testing.T) {
	sch := schematest.Compile(t, ensure.ResponseSchema())
	ev, err := converge(t, nil, `{"name": "/bin/true", "health_checks": [{"command": "/bin/true"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	both := ensure.Respond(ev, nil)
	both.Error = "x"
	for name, resp := range map[string]ensure.Response{"a run": ensure.Respond(ev, nil), "an error": ensure.Respond(nil, errors.New("x")), "both": both} {
		var out bytes.Buffer
		if err := resp.Write(&out, false); err != nil {
			t.Fatal(err)
		}
		v, err := jsonschema.UnmarshalJSON(&out)
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); (err == nil) != (name != "both") {
			t.Errorf("%s: validation gave %v", name, err)
		}
	}
}
