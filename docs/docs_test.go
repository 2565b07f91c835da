// Package docs runs the examples of the README and of docs/ that are
// marked runnable, so the documentation cannot drift from the binary.
//
// In a Markdown file, a fenced block whose info string has `file=NAME`
// (```yaml file=site.yaml) is written to NAME, and a block whose info
// string has `runnable` (```console runnable) holds commands, each on a
// line starting with "$ ", followed by the output they print (stdout and
// stderr together). The blocks of one file run in order in one fresh
// temporary directory, with the ccm under test first in PATH (also as
// bin/ccm; a leading `sudo ` is dropped, the tests run as root). Every
// path /tmp/ccm-NAME in them stands for NAME in that directory, and
// durations (12ms, 1.5s, 519µs) compare equal to any duration. A block
// marked `unordered` too prints its lines in an order that varies (work
// done at once): each command's lines are compared sorted.
package docs

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ccm-docs-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "ccm")
	// The examples' runs keep their state in the temporary directory, not
	// in the host's /var/lib/ccm.
	if err := os.Setenv("CCM_STATE_DIR", filepath.Join(dir, "state")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	build := exec.Command("go", "build", "-o", bin, "github.com/reactive-ccm/ccm/cmd/ccm")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building ccm:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// block is one fenced block of a Markdown file.
type block struct {
	line int // of the opening fence
	info []string
	body string
}

func (b block) attr(key string) string {
	for _, f := range b.info {
		if v, ok := strings.CutPrefix(f, key+"="); ok {
			return v
		}
	}
	return ""
}

func (b block) has(word string) bool {
	for _, f := range b.info {
		if f == word {
			return true
		}
	}
	return false
}

func (b block) runnable() bool { return b.has("runnable") }

// blocks returns the fenced blocks of a Markdown file.
func blocks(t *testing.T, path string) []block {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []block
	var cur *block
	s := bufio.NewScanner(f)
	for n := 1; s.Scan(); n++ {
		line := s.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &block{line: n, info: strings.Fields(strings.TrimPrefix(line, "```"))}
		case cur != nil && line == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.body += line + "\n"
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: fence never closed", path, cur.line)
	}
	return out
}

// markdown lists the README and every page under docs/.
func markdown(t *testing.T) []string {
	t.Helper()
	files := []string{"../README.md"}
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var (
	tmpPath  = regexp.MustCompile(`/tmp/ccm-([A-Za-z0-9._-]+)`)
	duration = regexp.MustCompile(`\b\d+(\.\d+)?(ns|µs|us|ms|s|m|h)\b`)
)

func TestRunnableExamples(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the examples manage files owned by root: run as root")
	}
	total := 0
	for _, md := range markdown(t) {
		bs := blocks(t, md)
		var run []block
		for _, b := range bs {
			if b.runnable() || b.attr("file") != "" {
				run = append(run, b)
			}
		}
		if len(run) == 0 {
			continue
		}
		t.Run(md, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, "bin"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(bin, filepath.Join(dir, "bin", "ccm")); err != nil {
				t.Fatal(err)
			}
			local := func(s string) string { return tmpPath.ReplaceAllString(s, dir+"/$1") }
			for _, b := range run {
				if name := b.attr("file"); name != "" {
					writeFile(t, filepath.Join(dir, name), local(b.body))
				}
				if b.runnable() {
					total++
					runBlock(t, fmt.Sprintf("%s:%d", md, b.line), dir, local(b.body), b.has("unordered"))
				}
			}
		})
	}
	if total == 0 {
		t.Fatal("no runnable example found: the marking changed?")
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runBlock runs the commands of one runnable block and compares what
// each prints with the lines shown after it.
func runBlock(t *testing.T, where, dir, body string, unordered bool) {
	t.Helper()
	var cmd string
	var want strings.Builder
	flush := func() {
		if cmd == "" {
			return
		}
		c := exec.CommandContext(t.Context(), "/bin/sh", "-c", strings.TrimPrefix(cmd, "sudo "))
		c.Dir = dir
		c.Env = append(os.Environ(), "PATH="+filepath.Join(dir, "bin")+":"+os.Getenv("PATH"))
		got, _ := c.CombinedOutput()
		if g, w := normal(string(got), unordered), normal(want.String(), unordered); g != w {
			t.Errorf("%s: $ %s\n--- got\n%s--- want\n%s", where, cmd, got, want.String())
		}
		want.Reset()
	}
	for _, line := range strings.SplitAfter(body, "\n") {
		if c, ok := strings.CutPrefix(line, "$ "); ok {
			flush()
			cmd = strings.TrimSpace(c)
			continue
		}
		want.WriteString(line)
	}
	flush()
}

// normal is output as compared: durations blanked, lines sorted when
// their order varies.
func normal(out string, unordered bool) string {
	out = duration.ReplaceAllString(out, "<d>")
	if !unordered {
		return out
	}
	lines := strings.SplitAfter(out, "\n")
	slices.Sort(lines)
	return strings.Join(lines, "")
}
