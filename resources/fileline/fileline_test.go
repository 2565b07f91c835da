package fileline_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/fileline"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// build builds a file_line on path with props (YAML) added.
func build(t *testing.T, path, props string) resources.Resource {
	t.Helper()
	return resourcetest.MustBuild(t, "file_line", "l", fmt.Sprintf("path: %s\n%s", path, props), filepath.Dir(path)).Resource
}

func TestConvergesOnceKeepingTheRest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sshd_config")
	const before = "# comment\nPort 22\nPermitRootLogin yes\nUsePAM yes\n"
	resourcetest.WriteFile(t, path, before, 0o640)
	if err := os.Chown(path, 1, 2); err != nil {
		t.Fatal(err)
	}
	r := build(t, path, "line: PermitRootLogin no\nmatch: ^PermitRootLogin ")
	out := resourcetest.Converge(t.Context(), t, r, false, false)
	if !out.Change.Changed || out.Before.Desired || !out.After.Desired {
		t.Fatalf("first run %+v, want a change to the desired state", out)
	}
	if d := out.Before.Differences; len(d) != 1 || d[0].Observed != "PermitRootLogin yes" || d[0].Desired != "PermitRootLogin no" || d[0].Note != "line 3" {
		t.Errorf("differences %+v, want line 3 PermitRootLogin yes → no", d)
	}
	want := strings.Replace(before, "PermitRootLogin yes", "PermitRootLogin no", 1)
	if got := resourcetest.ReadFile(t, path); got != want {
		t.Errorf("file holds %q, want %q", got, want)
	}
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil || st.Uid != 1 || st.Gid != 2 || st.Mode&0o7777 != 0o640 {
		t.Errorf("owner %d:%d mode %04o, want 1:2 0640 kept (%v)", st.Uid, st.Gid, st.Mode&0o7777, err)
	}
	if again := resourcetest.Converge(t.Context(), t, r, false, false); again.Applied || !again.Before.Desired {
		t.Errorf("second run %+v, want nothing to do", again)
	}
}

func TestNoopChangesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	resourcetest.WriteFile(t, path, "a\n", 0o644)
	out := resourcetest.Converge(t.Context(), t, build(t, path, "block: |\n  x\n  y\n"), false, true)
	if want := "Would have added the block to " + path + " at line 2"; out.Change.NoopMessage != want {
		t.Errorf("noop message %q, want %q", out.Change.NoopMessage, want)
	}
	if got := resourcetest.ReadFile(t, path); got != "a\n" {
		t.Errorf("noop wrote %q", got)
	}
}

func TestBlockConvergesAndIsRemoved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	resourcetest.WriteFile(t, path, "a\nb\n", 0o644)
	resourcetest.Converge(t.Context(), t, build(t, path, "block: |\n  x\n  y\nafter: ^a$"), false, false)
	if got, want := resourcetest.ReadFile(t, path), "a\n# BEGIN CCM l\nx\ny\n# END CCM l\nb\n"; got != want {
		t.Fatalf("file holds %q, want %q", got, want)
	}
	out := resourcetest.Converge(t.Context(), t, build(t, path, "block: |\n  x\n  z\n"), false, false)
	if d := out.Before.Differences; len(d) != 1 || d[0].Property != "block" || d[0].Note != "+1 −1 lines" {
		t.Errorf("differences %+v, want a block with one line changed", d)
	}
	resourcetest.Converge(t.Context(), t, build(t, path, "block: x\nensure: absent"), false, false)
	if got := resourcetest.ReadFile(t, path); got != "a\nb\n" {
		t.Errorf("after removal the file holds %q", got)
	}
}

func TestMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	out, err := resources.Converge(t.Context(), build(t, path, "line: x"), false, false)
	if !errors.Is(err, fileline.ErrNoFile) || out.Before.Desired || !strings.Contains(err.Error(), path+" ") ||
		!strings.Contains(err.Error(), "create it first, for example with a file resource with ensure: present and no content") {
		t.Errorf("present on a missing file: %+v, %v; want ErrNoFile", out, err)
	}
	if resourcetest.Exists(path) {
		t.Error("the file was created")
	}
	if out := resourcetest.Converge(t.Context(), t, build(t, path, "line: x\nensure: absent"), false, false); !out.Before.Desired {
		t.Errorf("absent on a missing file: %+v, want desired", out)
	}
}

func TestSymlinkIsNotFollowed(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	resourcetest.WriteFile(t, target, "a\n", 0o644)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := resources.Converge(t.Context(), build(t, link, "line: x"), false, false); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("converge through a symlink: %v, want a refusal", err)
	}
	if got := resourcetest.ReadFile(t, target); got != "a\n" {
		t.Errorf("the link's target was changed: %q", got)
	}
}

// TestInspect: ccm status shows the file's size in lines, digest,
// attributes and the blocks with default markers; absent for a missing
// file, a relative name taken from the working directory.
func TestInspect(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	show := func(name string) string { return resourcetest.Inspect(t, "file_line", name) }
	if got, want := show(path), `{"path":"`+path+`","ensure":"absent","lines":0,"provider":"posix"}`; got != want {
		t.Errorf("missing file %s, want %s", got, want)
	}
	resourcetest.WriteFile(t, path, "a\n# BEGIN CCM motd\nx\n# END CCM motd\n# BEGIN other\n# BEGIN CCM ssh\n", 0o640)
	want := `{"path":"` + path + `","ensure":"present","lines":6,"checksum":"sha256:8c319a64","owner":"root","group":"root","mode":"0640","blocks":["motd","ssh"],"provider":"posix"}`
	if got := show(path); got != want {
		t.Errorf("status\n%s\nwant\n%s", got, want)
	}
	t.Chdir(dir)
	if got := show("f"); got != want {
		t.Errorf("status by a relative name\n%s\nwant\n%s", got, want)
	}
}

// TestNoEndMarkerIsAnErrorNamingTheFile: a begin marker without its end
// stops the edit with the file, the marker and its line, and changes
// nothing.
func TestNoEndMarkerIsAnErrorNamingTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	resourcetest.WriteFile(t, path, "a\n# BEGIN CCM l\nx\n", 0o644)
	_, err := resources.Converge(t.Context(), build(t, path, "block: y"), false, false)
	if !errors.Is(err, fileline.ErrNoEndMarker) || !strings.Contains(err.Error(), path+" ") || !strings.Contains(err.Error(), `("# BEGIN CCM l" at line 2); put the end marker back`) {
		t.Errorf("converge: %v", err)
	}
	if got := resourcetest.ReadFile(t, path); got != "a\n# BEGIN CCM l\nx\n" {
		t.Errorf("file changed to %q", got)
	}
}

// TestInstance: a line or block claims its part of the file, never the
// whole, names what it keeps (a removal by match alone named "the line "
// before), and watches the file.
func TestInstance(t *testing.T) {
	resourcetest.Declares(t, "file_line", "l", []resourcetest.Declared{
		{Props: "path: /etc/x\nline: a=1",
			Want: "ensure present independent false owns [] uses [/etc/x] claims [{/etc/x false the line a=1}] paths [/etc/x] mounts []"},
		{Props: "path: /etc/x\nensure: absent\nmatch: ^a=",
			Want: "ensure absent independent false owns [] uses [/etc/x] claims [{/etc/x false the lines matching ^a=}] paths [/etc/x] mounts []"},
		{Props: "path: /etc/x\nblock: y",
			Want: "ensure present independent false owns [] uses [/etc/x] claims [{/etc/x false the block # BEGIN CCM l}] paths [/etc/x] mounts []"},
		{Props: "path: /etc/x\nblock: y\nmarker_begin: '# >>'\nmarker_end: '# <<'",
			Want: "ensure present independent false owns [] uses [/etc/x] claims [{/etc/x false the block # >>}] paths [/etc/x] mounts []"},
	})
}

// TestFileBytes: what the file holds after an edit, for files without a
// final newline, with CRLF lines and empty; the owner and mode are kept.
func TestFileBytes(t *testing.T) {
	for _, c := range []struct {
		name, before, props, after string
	}{
		{"no final newline", "a=1\nb=2", "line: c=3", "a=1\nb=2\nc=3\n"},
		{"empty file", "", "line: c=3", "c=3\n"},
		{"replaced in a file without final newline", "a=1\nk=0", "line: k=1\nmatch: ^k=", "a=1\nk=1\n"},
		{"last line removed", "a=1\nk=0\n", "ensure: absent\nline: k=0", "a=1\n"},
		{"only line removed", "k=0\n", "ensure: absent\nline: k=0", ""},
		{"blank lines kept", "a\n\n\nb\n", "line: c\nbefore: ^b", "a\n\n\nc\nb\n"},
		{"block after the last anchor", "[x]\n[y]\nz\n", "block: \"p=1\\nq=2\\n\"\nafter: ^\\[", "[x]\n[y]\n# BEGIN CCM l\np=1\nq=2\n# END CCM l\nz\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f")
			resourcetest.WriteFile(t, path, c.before, 0o640)
			if err := os.Chown(path, 65534, 65534); err != nil {
				t.Fatal(err)
			}
			resourcetest.Converge(t.Context(), t, build(t, path, c.props), false, false)
			if got := resourcetest.ReadFile(t, path); got != c.after {
				t.Errorf("file holds %q, want %q", got, c.after)
			}
			var st syscall.Stat_t
			if err := syscall.Stat(path, &st); err != nil || st.Uid != 65534 || st.Gid != 65534 || st.Mode&0o7777 != 0o640 {
				t.Errorf("owner %d:%d mode %04o (%v), want 65534:65534 0640 kept", st.Uid, st.Gid, st.Mode&0o7777, err)
			}
		})
	}
}

// TestApplyReadsTheFileAgain: an edit the host made between the check
// and the apply is kept; the apply works from the file as it is then.
func TestApplyReadsTheFileAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	resourcetest.WriteFile(t, path, "a\n", 0o644)
	r := build(t, path, "line: k=1\nmatch: ^k=")
	st, err := r.Check(t.Context())
	if err != nil || st.Desired {
		t.Fatalf("check %+v, %v", st, err)
	}
	resourcetest.WriteFile(t, path, "a\nhost=1\nk=0\n", 0o644)
	c, err := r.Apply(t.Context(), resources.Request{Status: st})
	if err != nil || !c.Changed {
		t.Fatalf("apply %+v, %v", c, err)
	}
	if got := resourcetest.ReadFile(t, path); got != "a\nhost=1\nk=1\n" {
		t.Errorf("file holds %q, want the host's line kept and k=0 replaced in place", got)
	}
	if c, err := r.Apply(t.Context(), resources.Request{Status: st}); err != nil || c.Changed {
		t.Errorf("apply again %+v, %v; want nothing to do", c, err)
	}
}
