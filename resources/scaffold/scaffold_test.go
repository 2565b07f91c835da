package scaffold

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	validatecmd "github.com/reactive-ccm/ccm/resources/internal/validate"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

var appTemplates = map[string]string{
	"app.conf":        "name = [[ data.name ]]\n",
	"conf.d/web.conf": "host = [[ facts.host ]]\n",
}

var appRendered = map[string]string{
	"app.conf":        "name = shop\n",
	"conf.d/web.conf": "host = web01\n",
}

func TestPurgeRemovesStrayFilesOnlyWhenSet(t *testing.T) {
	strays := map[string]string{"stray.txt": "x", "conf.d/old.conf": "y", "deep/er/z": "z"}
	for _, tc := range []struct {
		desc, props string
		want        map[string]string
		noop        string
	}{
		{desc: "purge", props: "purge: true", want: appRendered, noop: "Would have changed 3 scaffold files"},
		{desc: "no purge", want: merged(appRendered, strays)},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			l := newLayout(t, appTemplates)
			s := l.build(t, tc.props)
			resourcetest.Converge(t.Context(), t, s, false, false)
			resourcetest.WriteTree(t, l.target, strays)
			noop := resourcetest.Converge(t.Context(), t, s, false, true)
			if noop.Change.NoopMessage != tc.noop {
				t.Errorf("noop message %q, want %q", noop.Change.NoopMessage, tc.noop)
			}
			resourcetest.Converge(t.Context(), t, s, false, false)
			if got := readTree(t, l.target); !maps.Equal(got, tc.want) {
				t.Errorf("target\n%v\nwant\n%v", got, tc.want)
			}
		})
	}
}

func merged(a, b map[string]string) map[string]string {
	out := maps.Clone(a)
	maps.Copy(out, b)
	return out
}

func TestPostCommandsRunInOrderOnRenderedFiles(t *testing.T) {
	l := newLayout(t, map[string]string{"run.sh": "echo foo\n", "a.txt": "foo\n"})
	s := l.build(t, strings.Join([]string{
		"post:",
		`  - "*.sh": "chmod 0755 {}"`,
		`  - "*": "sed -i s/foo/bar/"`,
		`    "*.txt": "sed -i -e s/bar/baz/ {}"`,
	}, "\n"))
	resourcetest.Converge(t.Context(), t, s, false, false)
	want := map[string]string{"run.sh": "echo bar\n", "a.txt": "baz\n"}
	if got := readTree(t, l.target); !maps.Equal(got, want) {
		t.Errorf("target %v, want %v", got, want)
	}
	fi, err := os.Stat(filepath.Join(l.target, "run.sh"))
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("run.sh: %v, %v; want mode 0755", fi.Mode(), err)
	}
	if again := resourcetest.Converge(t.Context(), t, s, false, false); again.Applied {
		t.Errorf("post-processed files converged again: %+v", again)
	}
}

func TestPostFailures(t *testing.T) {
	for _, tc := range []struct {
		desc, post, want string
	}{
		{desc: "non-zero exit", post: `"*": "sh -c 'echo broken >&2; exit 3'"`, want: "exited with code 3: broken"},
		{desc: "timeout kills it", post: `"*": "sh -c 'sleep 30' {}"`, want: "timed out"},
		{desc: "unknown program", post: `"*": "no-such-program-ccm"`, want: "executable not found"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			l := newLayout(t, appTemplates)
			s := l.build(t, "post:\n  - "+tc.post)
			s.postTimeout = 200 * time.Millisecond
			_, err := s.Check(t.Context())
			if !errors.Is(err, ErrPost) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want ErrPost saying %q", err, tc.want)
			}
			if _, err := os.Stat(l.target); !errors.Is(err, os.ErrNotExist) {
				t.Error("a failed check created the target")
			}
		})
	}
}

func TestDriftIsDetectedAndRepaired(t *testing.T) {
	for _, tc := range []struct {
		desc  string
		drift func(path string) error
	}{
		{"hand-edited", func(p string) error { return os.WriteFile(p, []byte("edited\n"), 0o644) }},
		{"same size edit", func(p string) error { return os.WriteFile(p, []byte("name = shoq\n"), 0o644) }},
		{"deleted", os.Remove},
		{"chmod", func(p string) error { return os.Chmod(p, 0o600) }},
		{"replaced by a symlink", func(p string) error {
			if err := os.Remove(p); err != nil {
				return err
			}
			return os.Symlink("/dev/null", p)
		}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			l := newLayout(t, appTemplates)
			s := l.build(t, "")
			resourcetest.Converge(t.Context(), t, s, false, false)
			if err := tc.drift(filepath.Join(l.target, "app.conf")); err != nil {
				t.Fatal(err)
			}
			st, err := s.Check(t.Context())
			if err != nil || st.Desired || len(st.Differences) != 1 || !strings.HasPrefix(st.Differences[0].Property, "app.conf") {
				t.Fatalf("check after drift: %+v, %v", st, err)
			}
			out := resourcetest.Converge(t.Context(), t, s, false, false)
			if !out.Change.Changed || !maps.Equal(readTree(t, l.target), appRendered) {
				t.Errorf("not repaired: %+v %v", out, readTree(t, l.target))
			}
		})
	}
}

func TestAbsentRemovesOnlyRenderedFiles(t *testing.T) {
	for _, tc := range []struct {
		desc   string
		others map[string]string
		purge  string
		noop   string
	}{
		{desc: "alone", noop: "Would have removed 2 scaffold files"},
		{desc: "beside other files", others: map[string]string{"conf.d/local.conf": "mine"}, noop: "Would have removed 2 scaffold files"},
		{desc: "purge counts other files", others: map[string]string{"x": "mine"}, purge: "purge: true", noop: "Would have removed 3 scaffold files"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			l := newLayout(t, appTemplates)
			resourcetest.Converge(t.Context(), t, l.build(t, ""), false, false)
			resourcetest.WriteTree(t, l.target, tc.others)
			s := l.build(t, "ensure: absent\n"+tc.purge)
			noop := resourcetest.Converge(t.Context(), t, s, false, true)
			if noop.Change.NoopMessage != tc.noop {
				t.Errorf("noop message %q, want %q", noop.Change.NoopMessage, tc.noop)
			}
			out := resourcetest.Converge(t.Context(), t, s, false, false)
			if !out.Change.Changed || !out.After.Desired {
				t.Fatalf("converge absent: %+v", out)
			}
			got := readTree(t, l.target)
			if len(tc.others) == 0 && got != nil {
				t.Errorf("the emptied target was kept: %v", got)
			}
			if len(tc.others) > 0 && !maps.Equal(got, tc.others) {
				t.Errorf("left %v, want only %v", got, tc.others)
			}
			if again := resourcetest.Converge(t.Context(), t, s, false, false); again.Applied {
				t.Errorf("an absent scaffold converged again: %+v", again)
			}
		})
	}
}

func TestAbsentWithoutTargetNeedsNoSource(t *testing.T) {
	dir := t.TempDir()
	inst, err := resourcetest.Build(t, "scaffold", filepath.Join(dir, "gone"), "ensure: absent\nsource: no-such-templates", dir)
	if err != nil {
		t.Fatal(err)
	}
	if out := resourcetest.Converge(t.Context(), t, inst.Resource, false, false); out.Applied || out.Before.Ensure != "absent" {
		t.Errorf("got %+v", out)
	}
}

func TestNoopChangesNothing(t *testing.T) {
	l := newLayout(t, appTemplates)
	s := l.build(t, "")
	out := resourcetest.Converge(t.Context(), t, s, false, true)
	if !out.Change.Changed || out.Change.NoopMessage != "Would have changed 2 scaffold files" {
		t.Errorf("noop: %+v", out.Change)
	}
	if _, err := os.Stat(l.target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("noop created the target: %v", err)
	}
}

func TestUnconvergeableSources(t *testing.T) {
	for _, tc := range []struct {
		desc      string
		templates map[string]string
		wantErr   error
		want      string
	}{
		{desc: "empty source never stable", templates: map[string]string{}, wantErr: resources.ErrDesiredStateFailed, want: "renders no files"},
		{desc: "template error", templates: map[string]string{"a.txt": "[[ if ]]"}, wantErr: ErrRender, want: "a.txt"},
		{desc: "missing variable", templates: map[string]string{"a.txt": "[[ nope.x ]]"}, wantErr: ErrRender, want: "nope"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			l := newLayout(t, tc.templates)
			_, err := resources.Converge(t.Context(), l.build(t, ""), false, false)
			if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %v saying %q", err, tc.wantErr, tc.want)
			}
		})
	}
}

func TestMissingSourceSaysSo(t *testing.T) {
	l := newLayout(t, nil)
	if err := os.Remove(l.source); err != nil {
		t.Fatal(err)
	}
	_, err := l.build(t, "").Check(t.Context())
	if !errors.Is(err, ErrRender) || !strings.Contains(err.Error(), "the source "+l.source+" does not exist") {
		t.Errorf("got %v", err)
	}
}

func TestInstanceOrderingAndWatch(t *testing.T) {
	l := newLayout(t, appTemplates)
	inst, err := resourcetest.Build(t, "scaffold", l.target, "source: templates", l.dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(inst.Owns, []string{l.target}) || !reflect.DeepEqual(inst.Uses, []string{l.target, l.source}) {
		t.Errorf("owns %v uses %v", inst.Owns, inst.Uses)
	}
	if w := inst.Resource.Watch(); !reflect.DeepEqual(w.Trees, []string{l.target}) || !reflect.DeepEqual(w.InputTrees, []string{l.source}) {
		t.Errorf("watches %v and input %v, want the target and, as an input, the templates", w.Trees, w.InputTrees)
	}
	if inst.Provider != "choria" || inst.Ensure != "present" {
		t.Errorf("provider %q ensure %q", inst.Provider, inst.Ensure)
	}
}

// TestValidateRefusesBeforeAnythingIsWritten: every rendered file about
// to be installed is validated first; one refusal writes none of them.
func TestValidateRefusesBeforeAnythingIsWritten(t *testing.T) {
	l := newLayout(t, map[string]string{
		"start.sh": "echo starting [[ data.name ]]\n",
		"stop.sh":  "if then fi\n",
		"app.conf": "not a shell script (\n",
	})
	s := l.build(t, "validate:\n  - '*.sh': /bin/sh -n %s\n")
	_, err := resources.Converge(t.Context(), s, false, false)
	if !errors.Is(err, validatecmd.ErrRefused) || !strings.Contains(err.Error(), filepath.Join(l.target, "stop.sh")) {
		t.Fatalf("converge: %v, want stop.sh refused", err)
	}
	if got := readTree(t, l.target); len(got) != 0 {
		t.Fatalf("a refused render wrote %v", got)
	}
	resourcetest.WriteTree(t, l.source, map[string]string{"stop.sh": "echo stopping\n"})
	resourcetest.Converge(t.Context(), t, s, false, false)
	want := map[string]string{"start.sh": "echo starting shop\n", "stop.sh": "echo stopping\n", "app.conf": "not a shell script (\n"}
	if got := readTree(t, l.target); !maps.Equal(got, want) {
		t.Fatalf("target holds %v, want %v", got, want)
	}
}
