package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
)

// TestEventJSON: an event encodes upstream's shape (lists as [] when
// empty, the resource's properties as written, with its name) and decodes
// back with its properties.
func TestEventJSON(t *testing.T) {
	newWorld(t)
	_, rec := runOnce(t, load(t, "- fake:\n    - a: {value: \"1\", sleep: 1ms}\n"), engine.Options{})
	ev := rec.byID()["fake#a"]
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"error":[]`, `"unmet_requirements":[]`, `"properties":{`, `"value":"1"`, `"sleep":"1ms"`, `"name":"a"`, `"type":"fake"`, `"changed":true`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("encoded event lacks %s: %s", want, b)
		}
	}
	var back engine.Event
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if p := back.Properties.Map(); p["value"] != "1" || p["name"] != "a" || back.ID() != "fake#a" || !back.Changed {
		t.Fatalf("decoded event %+v with properties %v", back, p)
	}
	if again, _ := json.Marshal(&back); string(again) != string(b) {
		t.Fatalf("the decoded event encodes differently:\n%s\n%s", again, b)
	}
}
