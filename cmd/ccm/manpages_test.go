package main_test

import (
	"debug/buildinfo"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/cmd/ccm/internal/ccmbuild"
)

// The man pages come from the command definitions, written by a build
// with the manpages tag: one per command, ensure's types included, each
// with its flags; none for the hidden generator itself. The binary that
// ships has no such command, and does not link the markdown renderer it
// needs.
func TestManPages(t *testing.T) {
	man, err := ccmbuild.Build("ccm-man-", false, "-tags", "manpages")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(filepath.Dir(man))
	dir := filepath.Join(t.TempDir(), "man1")
	if out, err := exec.Command(man, "man-pages", dir).CombinedOutput(); err != nil {
		t.Fatalf("man-pages: %v\n%s", err, out)
	}
	for page, flag := range map[string]string{"ccm.1": `\fB--log-level\fP`, "ccm-run.1": `\fB--watch\fP`,
		"ccm-ensure-file.1": `\fB--content\fP`, "ccm-agent.1": `\fB--config\fP`, "ccm-fleet-status.1": `\fB--json\fP`} {
		b, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), ".nh\n.TH \"") || !strings.Contains(string(b), flag) {
			t.Errorf("%s lacks its header or %s:\n%s", page, flag, b)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "ccm-man-pages.1")); err == nil {
		t.Error("the hidden man-pages command has a page")
	}
	if r := ccm(t, "man-pages", t.TempDir()); r.code != 2 || !strings.Contains(r.stderr, `unknown command "man-pages"`) {
		t.Errorf("man-pages in the binary that ships: %+v", r)
	}
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range info.Deps {
		if strings.Contains(m.Path, "blackfriday") || strings.Contains(m.Path, "md2man") {
			t.Errorf("the binary that ships links %s", m.Path)
		}
	}
	if r := ccm(t, "--version"); !strings.HasPrefix(r.stdout, "ccm version devel") {
		t.Errorf("--version of an unstamped build: %q", r.stdout)
	}
}
