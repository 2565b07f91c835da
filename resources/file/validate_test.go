package file_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	validatecmd "github.com/reactive-ccm/ccm/resources/internal/validate"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// TestValidateGuardsTheWrite: the validate command sees the new content
// in a temporary file beside the target; a refusal fails the resource and
// leaves the old file, and no temporary file, behind.
func TestValidateGuardsTheWrite(t *testing.T) {
	const attrs = "owner: root\ngroup: root\nmode: \"0644\"\n"
	tests := []struct {
		name, content string
		wantErr       bool
	}{
		{"a config the validator accepts is written", "if true; then echo ok; fi\n", false},
		{"a config the validator refuses is not", "if then fi\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "app.sh")
			resourcetest.WriteFile(t, path, "echo old\n", 0o644)
			r := build(t, path, "ensure: present\ncontent: "+quote(tt.content)+"\nvalidate: /bin/sh -n %s\n"+attrs)
			_, err := resources.Converge(t.Context(), r, false, false)
			want := tt.content
			if tt.wantErr {
				want = "echo old\n"
				if !errors.Is(err, validatecmd.ErrRefused) || !strings.Contains(err.Error(), "Syntax error") {
					t.Fatalf("converge: %v, want the validator's refusal with its output", err)
				}
			} else if err != nil {
				t.Fatalf("converge: %v", err)
			}
			if got := resourcetest.ReadFile(t, path); got != want {
				t.Errorf("file holds %q, want %q", got, want)
			}
			if names := entries(t, dir); !slices.Equal(names, []string{"app.sh"}) {
				t.Errorf("directory holds %v, want only app.sh", names)
			}
		})
	}
}

func TestValidateSeesTheNewContentBesideTheTarget(t *testing.T) {
	dir := t.TempDir()
	seen := filepath.Join(t.TempDir(), "seen")
	path := filepath.Join(dir, "app.conf")
	r := build(t, path, "ensure: present\ncontent: \"port = 80\\n\"\nvalidate: /bin/cp %s "+seen+"\nowner: root\ngroup: root\nmode: \"0600\"\n")
	resourcetest.Converge(t.Context(), t, r, false, false)
	if got := resourcetest.ReadFile(t, seen); got != "port = 80\n" {
		t.Errorf("the validator saw %q", got)
	}
	if fi, err := os.Stat(seen); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the temporary file's mode was not the target's: %v %v", fi.Mode(), err)
	}
}

func TestValidateDoesNotRunInNoop(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	path := filepath.Join(dir, "app.conf")
	r := build(t, path, "ensure: present\ncontent: x\nvalidate: /usr/bin/touch "+marker+" %s\nowner: root\ngroup: root\nmode: \"0644\"\n")
	out := resourcetest.Converge(t.Context(), t, r, false, true)
	if !out.Change.Changed || resourcetest.Exists(marker) || resourcetest.Exists(path) {
		t.Fatalf("noop: %+v; validate ran: %v; file written: %v", out, resourcetest.Exists(marker), resourcetest.Exists(path))
	}
}

// quote writes s as a YAML double-quoted string.
func quote(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "\n", `\n`) + `"`
}
