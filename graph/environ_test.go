package graph_test

import (
	"os"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
)

func TestDotEnv(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	body := "# comment\nexport A=\"quoted value\"\nB='single'\nC=plain\n\nD=\"unbalanced\n"
	writeEnv(t, body)
	env, err := graph.Environ(true)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"A": "quoted value", "B": "single", "C": "plain", "D": `"unbalanced`} {
		if env[k] != want {
			t.Errorf(".env %s = %q, want %q", k, env[k], want)
		}
	}
	writeEnv(t, "novalue\n")
	if _, err := graph.Environ(true); err == nil || !strings.Contains(err.Error(), ".env:1") {
		t.Errorf("bad .env line: %v, want a positioned error", err)
	}
}

func writeEnv(t *testing.T, body string) {
	t.Helper()
	if err := os.WriteFile(".env", []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
