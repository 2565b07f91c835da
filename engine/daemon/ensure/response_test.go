package ensure_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/ensure"
	"github.com/reactive-ccm/ccm/engine/daemon/session"
	"go.yaml.in/yaml/v3"
)

// TestResponseWriteYAMLHoldsWhatJSONDoes: a run's response in YAML
// decodes to the JSON's values, keys in the same order, and strings
// that read as another type in YAML stay strings.
func TestResponseWriteYAMLHoldsWhatJSONDoes(t *testing.T) {
	ev := &engine.Event{Protocol: engine.EventProtocol, EventID: "x", Timestamp: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Type: "exec", Name: "123", Alias: "true", RequestedEnsure: "null", FinalEnsure: "1.5", Duration: time.Second,
		Changed: true, Error: engine.List{"no: such"}, Trigger: engine.TriggerStartup}
	var js, ya bytes.Buffer
	if err := ensure.Respond(ev, nil).Write(&js, false); err != nil {
		t.Fatal(err)
	}
	if err := ensure.Respond(ev, nil).Write(&ya, true); err != nil {
		t.Fatal(err)
	}
	var fromJSON, fromYAML any
	if err := json.Unmarshal(js.Bytes(), &fromJSON); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(ya.Bytes(), &fromYAML); err != nil {
		t.Fatal(err)
	}
	// YAML's integers decode as int, JSON's as float64: compare by JSON.
	a, _ := json.Marshal(fromJSON)
	b, _ := json.Marshal(fromYAML)
	if !bytes.Equal(a, b) {
		t.Fatalf("YAML holds\n%s\nJSON holds\n%s", b, a)
	}
	for _, want := range []string{"\n  name: \"123\"\n  alias: \"true\"\n", "\n  error:\n    - 'no: such'\n"} {
		if !strings.Contains(ya.String(), want) {
			t.Fatalf("the state is not in block style in the JSON's order, strings quoted where needed; want %q in\n%s", want, ya.String())
		}
	}
}

// walk yields each schema object under s with the path to it.
func walk(path string, s map[string]any) iter.Seq2[string, map[string]any] {
	return func(yield func(string, map[string]any) bool) {
		props, _ := s["properties"].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(props)) {
			p, ok := props[name].(map[string]any)
			if !ok {
				continue
			}
			if !yield(path+"."+name, p) {
				return
			}
			for k, v := range walk(path+"."+name, p) {
				if !yield(k, v) {
					return
				}
			}
			if items, ok := p["items"].(map[string]any); ok {
				for k, v := range walk(path+"."+name+"[]", items) {
					if !yield(k, v) {
						return
					}
				}
			}
		}
	}
}

// TestResponseSchemaDescribesEveryField: a field added to the event
// needs its description, and the required fields are ones it encodes.
func TestResponseSchemaDescribesEveryField(t *testing.T) {
	event := ensure.ResponseSchema()["definitions"].(map[string]any)["transactionEvent"].(map[string]any)
	n := 0
	for path, p := range walk("state", event) {
		n++
		if d, _ := p["description"].(string); d == "" {
			t.Errorf("%s has no description", path)
		}
	}
	if fields := reflect.TypeFor[engine.Event]().NumField(); n < fields/2 {
		t.Fatalf("the schema describes %d fields of the event's %d", n, fields)
	}
	props := event["properties"].(map[string]any)
	for _, r := range event["required"].([]any) {
		if _, ok := props[r.(string)]; !ok {
			t.Errorf("required %q is not a field the event encodes", r)
		}
	}
	if props["duration"].(map[string]any)["type"] != "integer" || props["timestamp"].(map[string]any)["format"] != "date-time" {
		t.Errorf("duration %v and timestamp %v: want nanoseconds and a date-time", props["duration"], props["timestamp"])
	}
}

func TestFailed(t *testing.T) {
	for _, c := range []struct {
		name string
		ev   engine.Event
		want bool
	}{
		{"stable", engine.Event{}, false},
		{"changed", engine.Event{Changed: true}, false},
		{"skipped by control", engine.Event{Skipped: true}, false},
		{"failed", engine.Event{Failed: true}, true},
		{"skipped for a failed requirement", engine.Event{Skipped: true, UnmetRequirements: engine.List{"exec#x"}}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := ensure.Failed(&c.ev); got != c.want {
				t.Fatalf("Failed = %t, want %t", got, c.want)
			}
		})
	}
}

func TestReadRequestErrors(t *testing.T) {
	bomb := "protocol: io.choria.ccm.v1.resource.ensure.request\ntype: exec\nproperties:\n  name: x\n  a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	for i, prev := 'b', 'a'; i <= 'k'; i, prev = i+1, i {
		bomb += "  " + string(i) + ": &" + string(i) + " [" + strings.Repeat("*"+string(prev)+", ", 9) + "*" + string(prev) + "]\n"
	}
	for _, c := range []struct {
		name string
		r    *strings.Reader
		want string
	}{
		{"not YAML", strings.NewReader("{"), "invalid request: yaml: line 1"},
		{"aliases past the budget", strings.NewReader(bomb), "aliases expand the document too far"},
		{"properties a list", strings.NewReader(`{"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "exec", "properties": []}`), "properties: expected a map"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, _, err := ensure.ReadRequest(c.r); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
	broken := errors.New("reader broke")
	if _, _, err := ensure.ReadRequest(iotest.ErrReader(broken)); !errors.Is(err, broken) {
		t.Fatalf("a failing reader gave %v", err)
	}
}

func TestConvergeReturnsTheEventWhenItCannotBeRecorded(t *testing.T) {
	store, err := session.Create(filepath.Join(t.TempDir(), "session"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(store.Dir()); err != nil {
		t.Fatal(err)
	}
	ev, err := converge(t, store, `{"name": "/bin/true"}`)
	if !errors.Is(err, os.ErrNotExist) || ev == nil || !ev.Changed {
		t.Fatalf("Converge into a removed store: %+v, %v; want the run's event and the store's error", ev, err)
	}
}
