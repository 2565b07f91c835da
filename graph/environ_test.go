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
	writeFile(t, ".env", body)
	env, err := graph.Environ(true)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"A": "quoted value", "B": "single", "C": "plain", "D": `"unbalanced`} {
		if env[k] != want {
			t.Errorf(".env %s = %q, want %q", k, env[k], want)
		}
	}
	writeFile(t, ".env", "novalue\n")
	if _, err := graph.Environ(true); err == nil || !strings.Contains(err.Error(), ".env:1") {
		t.Errorf("bad .env line: %v, want a positioned error", err)
	}
}

// TestDotEnvOverTheEnvironment: ./.env is read only when asked, may be
// missing, overrides the process's variables, and one that cannot be
// read or holds a line without a key is an error saying where.
func TestDotEnvOverTheEnvironment(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("CCM_DOTENV_TEST", "process")
	for _, c := range []struct {
		name, body string
		read       bool
		want, err  string
	}{
		{"not asked for", "CCM_DOTENV_TEST=file\n=broken\n", false, "process", ""},
		{"missing", "", true, "process", ""},
		{"over the process's", "  CCM_DOTENV_TEST = file  \n", true, "file", ""},
		{"a line without a key", "# first\n\n = x\n", true, "", `.env:3: expected KEY=VALUE, got "= x"`},
		{"a directory", "", true, "", "reading .env: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.RemoveAll(".env")
			switch {
			case c.name == "a directory":
				if err := os.Mkdir(".env", 0o755); err != nil {
					t.Fatal(err)
				}
			case c.body != "":
				writeFile(t, ".env", c.body)
			}
			env, err := graph.Environ(c.read)
			if c.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), c.err) {
					t.Fatalf("Environ = %v; want an error starting %q", err, c.err)
				}
				return
			}
			if err != nil || env["CCM_DOTENV_TEST"] != c.want {
				t.Fatalf("CCM_DOTENV_TEST = %q, %v; want %q", env["CCM_DOTENV_TEST"], err, c.want)
			}
		})
	}
}
