package main

import (
	"os"
	"strings"
	"testing"
)

func TestDotEnv(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	body := "# comment\nexport A=\"quoted value\"\nB='single'\nC=plain\n\nD=\"unbalanced\n"
	writeFile(t, ".env", body)
	env, err := environ(true)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"A": "quoted value", "B": "single", "C": "plain", "D": `"unbalanced`} {
		if env[k] != want {
			t.Errorf(".env %s = %q, want %q", k, env[k], want)
		}
	}
	writeFile(t, ".env", "novalue\n")
	if _, err := environ(true); err == nil || !strings.Contains(err.Error(), ".env:1") {
		t.Errorf("bad .env line: %v, want a positioned error", err)
	}
}

func writeFile(t *testing.T, p, body string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
