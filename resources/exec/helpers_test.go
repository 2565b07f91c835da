package exec_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// build makes an exec from its name and properties.
var build = resourcetest.Builder("exec")

// logRecord is one captured slog record.
type logRecord struct {
	Level    string `json:"level"`
	Msg      string `json:"msg"`
	Resource string `json:"resource"`
	Stream   string `json:"stream"`
}

// convergeLogged converges an exec with the default slog logger sending
// to a buffer, and returns what was logged. Tests using it must not run
// in parallel.
func convergeLogged(t *testing.T, name, props string) []logRecord {
	t.Helper()
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewJSONHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(old) })
	if _, err := resources.Converge(t.Context(), build(t, name, props), false, false); err != nil {
		t.Fatal(err)
	}
	var out []logRecord
	dec := json.NewDecoder(&buf)
	for dec.More() {
		var r logRecord
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}
