package exec_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func build(t testing.TB, name, props string) resources.Resource {
	t.Helper()
	return resourcetest.MustBuild(t, "exec", name, props, t.TempDir()).Resource
}

// logRecord is one captured slog record.
type logRecord struct {
	Level    string `json:"level"`
	Msg      string `json:"msg"`
	Resource string `json:"resource"`
	Stream   string `json:"stream"`
}

// captureLogs sends the default slog logger to a buffer for the test and
// returns a function that decodes what was logged. Tests using it must not
// run in parallel.
func captureLogs(t *testing.T) func() []logRecord {
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewJSONHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(old) })
	return func() []logRecord {
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
}
