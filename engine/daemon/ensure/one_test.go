package ensure_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine/daemon/ensure"
	"github.com/reactive-ccm/ccm/engine/daemon/session"
	"go.yaml.in/yaml/v3"
)

// exec is a request of an exec resource of props (YAML), in dir's session.
func exec(t *testing.T, dir, props string) ensure.Request {
	t.Helper()
	var node yaml.Node
	if err := yaml.Unmarshal([]byte(props), &node); err != nil {
		t.Fatal(err)
	}
	return ensure.Request{Type: "exec", Props: node.Content[0], From: "test", Session: dir}
}

func TestOneInASession(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "session")
	if _, err := session.Create(dir); err != nil {
		t.Fatal(err)
	}
	ev, err := ensure.One(t.Context(), exec(t, dir, "{name: /bin/false, alias: broken}"))
	if err != nil || !ensure.Failed(ev) {
		t.Fatalf("event %+v, %v; want a failed run", ev, err)
	}
	ev, err = ensure.One(t.Context(), exec(t, dir, "{name: /bin/true, require: [exec#broken]}"))
	if err != nil || !ev.Skipped || len(ev.UnmetRequirements) != 1 {
		t.Fatalf("event %+v, %v; want it skipped for the failure the session recorded", ev, err)
	}
	// Without the session, the reference is to nothing.
	var bad *ensure.BadRequest
	if _, err := ensure.One(t.Context(), exec(t, "", "{name: /bin/true, require: [exec#broken]}")); !errors.As(err, &bad) || !strings.Contains(err.Error(), ensure.ErrNoSession.Error()) {
		t.Fatalf("a reference outside a session: %v, want BadRequest saying %v", err, ensure.ErrNoSession)
	}
}

func TestOneBadRequests(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none")
	for name, c := range map[string]struct {
		req  ensure.Request
		want string
	}{
		"no such session":  {exec(t, missing, "{name: /bin/true}"), "start one with `ccm session new --directory " + missing + "`"},
		"unknown property": {exec(t, "", "{name: /bin/true, bogus: 1}"), "bogus"},
		"unknown type":     {ensure.Request{Type: "nosuch", From: "test"}, "nosuch"},
	} {
		t.Run(name, func(t *testing.T) {
			ev, err := ensure.One(t.Context(), c.req)
			var bad *ensure.BadRequest
			if !errors.As(err, &bad) || !strings.Contains(err.Error(), c.want) || ev != nil {
				t.Fatalf("One: %+v, %v; want BadRequest saying %q", ev, err, c.want)
			}
		})
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a bad request made the session store: %v", err)
	}
}
