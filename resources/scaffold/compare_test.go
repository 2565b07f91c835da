package scaffold

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// TestFileDifferences: what a check says of each kind of drift in a
// rendered file: its mode, its kind, its content (with a diff unless the
// file is private to its owner and group).
func TestFileDifferences(t *testing.T) {
	for _, c := range []struct {
		desc  string
		drift func(t *testing.T, path string)
		want  string
		diff  bool
	}{
		{"mode", func(t *testing.T, p string) { must(t, os.Chmod(p, 0o600)) }, "app.conf mode 0600 → 0644", false},
		{"fifo", func(t *testing.T, p string) { must(t, os.Remove(p)); resourcetest.FIFO(t, p) }, "app.conf not a regular file → regular file", false},
		{"content", func(t *testing.T, p string) { resourcetest.WriteFile(t, p, "name = other\n", 0o644) }, "app.conf sha256:", true},
	} {
		t.Run(c.desc, func(t *testing.T) {
			l := newLayout(t, appTemplates)
			s := l.build(t, "")
			resourcetest.Converge(t.Context(), t, s, false, false)
			c.drift(t, filepath.Join(l.target, "app.conf"))
			st, err := s.Check(t.Context())
			if err != nil || len(st.Differences) != 1 {
				t.Fatalf("check %+v, %v", st, err)
			}
			d := st.Differences[0]
			if got := d.String(); !strings.HasPrefix(got, c.want) {
				t.Errorf("difference %q, want %q", got, c.want)
			}
			if (d.Diff != "") != c.diff || c.diff && !strings.Contains(d.Diff, "-name = other\n+name = shop\n") {
				t.Errorf("diff %q, want one: %v", d.Diff, c.diff)
			}
		})
	}
}

// TestPrivateFileHasNoDiff: a rendered file others cannot read is
// compared by digest only: its text never reaches an event.
func TestPrivateFileHasNoDiff(t *testing.T) {
	l := newLayout(t, map[string]string{"secret.conf": "key = [[ data.name ]]\n"})
	s := l.build(t, "post:\n  - '*.conf': 'chmod 0640'")
	resourcetest.Converge(t.Context(), t, s, false, false)
	if err := os.WriteFile(filepath.Join(l.target, "secret.conf"), []byte("key = leaked\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	st, err := s.Check(t.Context())
	if err != nil || len(st.Differences) != 1 || st.Differences[0].Diff != "" || !strings.HasPrefix(st.Differences[0].Observed, "sha256:") {
		t.Errorf("check %+v, %v; want a digest and no diff", st, err)
	}
}

// TestEachBoundsTheDifferences: a check describes 20 files, then how many
// more differ.
func TestEachBoundsTheDifferences(t *testing.T) {
	describe := func(rel string) resources.Difference { return resources.Differs(rel, "absent", "present") }
	for n, want := range map[int]string{0: "", 1: "f0 absent → present", 20: "f19 absent → present", 25: "other files 5 differ → 0 differ"} {
		var paths []string
		for i := range n {
			paths = append(paths, fmt.Sprintf("f%d", i))
		}
		got := each(paths, describe)
		if len(got) != min(n, 21) || n > 0 && got[len(got)-1].String() != want {
			t.Errorf("%d paths: %v, want %d ending %q", n, got, min(n, 21), want)
		}
	}
}

// TestTargetMustBeADirectory: a file at the target, or a directory where
// a file renders, is an error that says what to do; nothing is written.
func TestTargetMustBeADirectory(t *testing.T) {
	l := newLayout(t, appTemplates)
	must(t, os.MkdirAll(filepath.Dir(l.target), 0o755))
	resourcetest.WriteFile(t, l.target, "x", 0o644)
	if _, err := resources.Converge(t.Context(), l.build(t, ""), false, false); err == nil || err.Error() != l.target+" exists and is not a directory" {
		t.Errorf("converge onto a file: %v", err)
	}
	l = newLayout(t, appTemplates)
	if err := os.MkdirAll(filepath.Join(l.target, "app.conf"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := resources.Converge(t.Context(), l.build(t, ""), false, false)
	if want := filepath.Join(l.target, "app.conf") + " is a directory where the scaffold renders a file; remove it"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("converge onto a directory: %v, want %q", err, want)
	}
	if resourcetest.Exists(filepath.Join(l.target, "conf.d")) {
		t.Error("files were written")
	}
}

// TestPostArgs: {} stands for the file wherever it appears; without it
// the file is the last argument; the glob matches the base name.
func TestPostArgs(t *testing.T) {
	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"chmod", "0755"}, "0755|/t/a/run.sh"},
		{[]string{"sh", "-c", "x {} && y {}.bak"}, "-c|x /t/a/run.sh && y /t/a/run.sh.bak"},
		{[]string{"touch"}, "/t/a/run.sh"},
	} {
		r := postRule{glob: "*.sh", argv: c.argv}
		if got := strings.Join(r.args("/t/a/run.sh"), "|"); got != c.want {
			t.Errorf("%q: %q, want %q", c.argv, got, c.want)
		}
	}
	for path, want := range map[string]bool{"/t/run.sh": true, "/t/sh/run": false, "/t.sh/x": false, "run.sh": true} {
		if got := (postRule{glob: "*.sh"}).matches(path); got != want {
			t.Errorf("*.sh matches %s: %v", path, got)
		}
	}
}

func TestCapitalise(t *testing.T) {
	for in, want := range map[string]string{"facts": "Facts", "Data": "Data", "": "", "é": "É", "x": "X"} {
		if got := capitalise(in); got != want {
			t.Errorf("capitalise(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNoopChange: noop reports the files it would touch, and nothing when
// there are none.
func TestNoopChange(t *testing.T) {
	if c := noopChange(0, "Would have changed %d scaffold files"); c.Changed || c.NoopMessage != "" {
		t.Errorf("no files: %+v", c)
	}
	if c := noopChange(3, "Would have removed %d scaffold files"); !c.Changed || c.NoopMessage != "Would have removed 3 scaffold files" {
		t.Errorf("three files: %+v", c)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestValidateOnlyWhatIsWritten: validate checks the files an apply
// writes; a file already in place is not checked again, so a rule added
// later that it breaks does not block another file's change.
func TestValidateOnlyWhatIsWritten(t *testing.T) {
	l := newLayout(t, map[string]string{"old.sh": "if then fi\n", "new.sh": "echo v1\n"})
	resourcetest.Converge(t.Context(), t, l.build(t, ""), false, false)
	resourcetest.WriteTree(t, l.source, map[string]string{"new.sh": "echo v2\n"})
	out := resourcetest.Converge(t.Context(), t, l.build(t, "validate:\n  - '*.sh': /bin/sh -n %s\n"), false, false)
	if d := out.Before.Differences; !out.Change.Changed || len(d) != 1 || d[0].Property != "new.sh" {
		t.Errorf("converge %+v", out)
	}
	if got := resourcetest.ReadFile(t, filepath.Join(l.target, "new.sh")); got != "echo v2\n" {
		t.Errorf("new.sh holds %q", got)
	}
}
