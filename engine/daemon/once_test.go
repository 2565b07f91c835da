package daemon_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon"
	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
	"github.com/reactive-ccm/ccm/graph"
)

// once runs the manifest src (messages and resources) once, noop or not,
// and returns what it printed, the state its hooks were told and its
// error.
func once(t *testing.T, src string, noop bool) (string, engine.State, error) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "manifest.yaml")
	put(t, file, src)
	g, err := graph.Load([]string{file}, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	var told engine.State
	hooks := func(_ *slog.Logger, opts *engine.Options) (func(engine.State), error) {
		if opts.Events == nil {
			t.Error("the hooks were called before the events were printed")
		}
		return func(st engine.State) { told = st }, nil
	}
	c := daemon.Config{Graph: g, Engine: engine.Options{Noop: noop, Logger: slog.New(slog.DiscardHandler)}}
	err = daemon.Once(t.Context(), c, daemon.Output{Stdout: &out, Stderr: io.Discard, Print: eventlog.Options{}}, hooks)
	return out.String(), told, err
}

// messages is a manifest of out under dir holding content, with a pre
// and a post message.
func messages(dir, content string) string {
	return fmt.Sprintf("ccm:\n  pre_message: starting\n  post_message: all done\n  resources:\n%s",
		indent(manifest(dir, content)))
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n    ") + "\n"
}

func TestOnceConvergesAndSaysSo(t *testing.T) {
	dir := t.TempDir()
	out, st, err := once(t, messages(dir, "one\n"), false)
	if err != nil {
		t.Fatalf("Once: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out")); err != nil || string(b) != "one\n" {
		t.Errorf("out holds %q, %v; want one", b, err)
	}
	for _, want := range []string{"starting\n", "1 resources: 1 changed, 0 failed", "all done\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if st.Resources != 1 {
		t.Errorf("the hooks were told of %d resources; want 1", st.Resources)
	}
}

func TestOnceNoopChangesNothing(t *testing.T) {
	dir := t.TempDir()
	out, _, err := once(t, messages(dir, "one\n"), true)
	if err != nil {
		t.Fatalf("Once: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a noop run made out: %v", err)
	}
}

func TestOnceFailedResourceIsFailed(t *testing.T) {
	dir := t.TempDir()
	// out's directory does not exist: the file cannot be written.
	out, _, err := once(t, messages(filepath.Join(dir, "missing"), "one\n"), false)
	var failed *daemon.Failed
	if !errors.As(err, &failed) {
		t.Fatalf("Once: %v; want Failed\n%s", err, out)
	}
	if strings.Contains(out, "all done") {
		t.Errorf("the post message was printed after a failed run:\n%s", out)
	}
}
