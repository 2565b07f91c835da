package exec_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func build(t testing.TB, name, props string) resources.Resource {
	t.Helper()
	return resourcetest.MustBuild(t, "exec", name, props, t.TempDir()).Resource
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func mustWrite(t testing.TB, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
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
