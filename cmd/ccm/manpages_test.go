package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The man pages come from the command definitions: one per command,
// ensure's types included, each with its flags; none for the hidden
// generator itself.
func TestManPages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "man1")
	if r := ccm(t, "man-pages", dir); r.code != 0 {
		t.Fatalf("man-pages: %+v", r)
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
	if r := ccm(t, "--version"); !strings.HasPrefix(r.stdout, "ccm version devel") {
		t.Errorf("--version of an unstamped build: %q", r.stdout)
	}
}
