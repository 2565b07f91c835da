package inputs_test

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/reactive-ccm/ccm/engine/daemon/inputs"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
	"github.com/reactive-ccm/ccm/graph/facts"
)

// TestHieraInput: the input is the first argument unless it is a
// FACT=VALUE, else $HIERA_INPUT; without either it is an error.
func TestHieraInput(t *testing.T) {
	for _, c := range []struct {
		name, env string
		args      []string
		input     string
		set       []string
		err       bool
	}{
		{"the first argument", "", []string{"data.json", "fqdn=a"}, "data.json", []string{"fqdn=a"}, false},
		{"the first argument over $HIERA_INPUT", "env.json", []string{"data.json"}, "data.json", []string{}, false},
		{"$HIERA_INPUT before facts", "env.json", []string{"fqdn=a", "role=web"}, "env.json", []string{"fqdn=a", "role=web"}, false},
		{"no input", "", nil, "", nil, true},
		{"only facts", "", []string{"fqdn=a"}, "", nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(inputs.HieraInputEnv, c.env)
			input, set, err := inputs.HieraInput(c.args)
			if (err != nil) != c.err || input != c.input || !slices.Equal(set, c.set) {
				t.Fatalf("got %q %q %v; want %q %q, error %v", input, set, err, c.input, c.set, c.err)
			}
			if err != nil && err.Error() != "no input: give a hiera file (or set HIERA_INPUT)" {
				t.Fatalf("error %q", err)
			}
		})
	}
}

// TestReadHiera: a manifest's data sections are read without asking for
// the sources; a hiera document, local or remote, is read through them.
func TestReadHiera(t *testing.T) {
	dir := t.TempDir()
	manifest := write(t, filepath.Join(dir, "m.yaml"), "data: {word: manifest}\nccm: {resources: [{exec: [{/bin/true: {}}]}]}\n")
	doc := write(t, filepath.Join(dir, "data.yaml"), "data: {word: local}\n")
	set, addr := remote(t, "data: {word: remote}\n")
	for _, c := range []struct {
		name, input, word string
		asked             bool
	}{
		{"a manifest", manifest, "manifest", false},
		{"a hiera document", doc, "local", true},
		{"remote data", addr, "remote", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			asked := false
			src, err := inputs.ReadHiera(c.input, func() (*source.Set, error) { asked = true; return set, nil })
			if err != nil {
				t.Fatal(err)
			}
			if got := word(t, src.Data); got != c.word || asked != c.asked {
				t.Fatalf("word %q, sources asked %v; want %q, %v", got, asked, c.word, c.asked)
			}
		})
	}
	t.Run("sources that cannot be had", func(t *testing.T) {
		refused := errors.New("no NATS context")
		if _, err := inputs.ReadHiera("kv://bucket/key", func() (*source.Set, error) { return nil, refused }); !errors.Is(err, refused) {
			t.Fatalf("error %v", err)
		}
	})
}

// TestHieraFacts: the host's facts only from a cache, the environment's
// variables only when asked, then the file, then FACT=VALUE over them.
func TestHieraFacts(t *testing.T) {
	file := write(t, filepath.Join(t.TempDir(), "facts.yaml"), "role: db\nzone: a\n")
	t.Setenv("CCM_HIERA_FACT", "from-env")
	all, warn, err := inputs.HieraFacts(t.Context(), nil, true, file, []string{"role=web"})
	if err != nil || warn != nil || all["role"] != "web" || all["zone"] != "a" || all["CCM_HIERA_FACT"] != "from-env" || all["host"] != nil {
		t.Fatalf("facts %v, warn %v, error %v", all, warn, err)
	}
	all, _, err = inputs.HieraFacts(t.Context(), &facts.Cache{}, false, "", nil)
	if err != nil || all["host"] == nil || all["CCM_HIERA_FACT"] != nil {
		t.Fatalf("facts %v, error %v", all, err)
	}
	if _, _, err := inputs.HieraFacts(t.Context(), nil, false, filepath.Join(t.TempDir(), "missing.yaml"), nil); err == nil {
		t.Fatal("a missing facts file is no error")
	}
}

// TestHieraFiles: the files given, else $CCM_HIERA_DATA's, else none.
func TestHieraFiles(t *testing.T) {
	for _, c := range []struct {
		env         string
		given, want []string
	}{
		{"", []string{"a.yaml", "b.yaml"}, []string{"a.yaml", "b.yaml"}},
		{"env.yaml", []string{"a.yaml"}, []string{"a.yaml"}},
		{"env.yaml", nil, []string{"env.yaml"}},
		{"", nil, nil},
	} {
		t.Setenv(inputs.HieraEnv, c.env)
		if got := inputs.HieraFiles(c.given); !slices.Equal(got, c.want) {
			t.Errorf("$%s=%q, given %q: %q, want %q", inputs.HieraEnv, c.env, c.given, got, c.want)
		}
	}
}
