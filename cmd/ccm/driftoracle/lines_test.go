package driftoracle_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Lines of files: a file resource that leaves the content alone (it
// keeps the file there with its mode, owner and group) and a file_line
// holding one line of it, "ccm-key-N = VALUE", found by its key. The host
// adds lines of its own, which must stay.

var lineFileKind = &kind{
	name:         "line file",
	generate:     generateLineFiles,
	modes:        []os.FileMode{0o644, 0o600, 0o640},
	manifestType: "file",
	entry:        func(r *resource) string { return entryOf(r, "present", "") },
	holds:        func(r *resource) string { return holdsAs(r, "file") },
	tampers: []tamper{
		{"unlink", func(_ *hand, r *resource) error { return os.Remove(r.path) }},
		renameAway, renameAwayAndBack, chmod, chown, noiseBeside,
	},
}

var lineKind = &kind{
	name:         "line",
	generate:     generateLines,
	modes:        []os.FileMode{0o644},
	manifestType: "file_line",
	entry: func(r *resource) string {
		return fmt.Sprintf("{path: %q, line: %q, match: %q}", r.path, r.content, lineKey(r).String())
	},
	holds: holdsLine,
	tampers: []tamper{
		{"value changed in place", func(h *hand, r *resource) error {
			return rewriteLines(r, func(l string) string {
				if lineKey(r).MatchString(l) {
					return l + "-changed"
				}
				return l
			}, false)
		}},
		{"line removed by an atomic replace", func(h *hand, r *resource) error {
			return rewriteLines(r, func(l string) string {
				if lineKey(r).MatchString(l) {
					return ""
				}
				return l
			}, true)
		}},
		{"second value appended", func(h *hand, r *resource) error {
			return appendLine(r.path, strings.SplitN(string(r.content), " = ", 2)[0]+" = other")
		}},
		{"host line appended", func(h *hand, r *resource) error {
			return appendLine(r.path, fmt.Sprintf("host-%d", h.seq.Add(1)))
		}},
		{"emptied", func(_ *hand, r *resource) error { return os.Truncate(r.path, 0) }},
	},
}

// generateLineFiles adds one line file for about every twentieth file.
func generateLineFiles(g *gen, k *kind) {
	for i := range 1 + g.files/20 {
		parent := g.dirs[g.rng.IntN(len(g.dirs))]
		g.add(k, filepath.Join(parent.path, g.name("l", i)), nil)
	}
}

// generateLines adds a line to every line file.
func generateLines(g *gen, k *kind) {
	files := 0
	for _, r := range g.out {
		if r.kind != lineFileKind {
			continue
		}
		line := g.add(k, r.path, nil)
		line.content = fmt.Appendf(nil, "ccm-key-%d = %x", files, g.rng.Uint32())
		files++
	}
}

// lineKey matches the lines of r's key.
func lineKey(r *resource) *regexp.Regexp {
	key, _, _ := strings.Cut(string(r.content), " = ")
	return regexp.MustCompile("^" + regexp.QuoteMeta(key) + `\s*=`)
}

// holdsLine checks that exactly one line of r's file has r's key, and
// that it is r's line.
func holdsLine(r *resource) string {
	b, err := os.ReadFile(r.path)
	if err != nil {
		return err.Error()
	}
	var found []string
	for l := range strings.SplitSeq(string(b), "\n") {
		if lineKey(r).MatchString(l) {
			found = append(found, l)
		}
	}
	if len(found) != 1 || found[0] != string(r.content) {
		return fmt.Sprintf("lines of the key %q, want only %q", found, r.content)
	}
	return ""
}

// rewriteLines rewrites r's file with each line passed through edit (an
// empty result drops the line), in place or by an atomic replace.
func rewriteLines(r *resource, edit func(string) string, atomic bool) error {
	b, err := os.ReadFile(r.path)
	if err != nil {
		return err
	}
	var out []string
	for l := range strings.SplitSeq(strings.TrimSuffix(string(b), "\n"), "\n") {
		if l = edit(l); l != "" {
			out = append(out, l)
		}
	}
	content := []byte(strings.Join(out, "\n") + "\n")
	if !atomic {
		f, err := os.OpenFile(r.path, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return err
		}
		_, err = f.Write(content)
		return errors.Join(err, f.Close())
	}
	tmp := r.path + ".tamper"
	return errors.Join(os.WriteFile(tmp, content, r.mode), os.Rename(tmp, r.path))
}

func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(line + "\n")
	return errors.Join(err, f.Close())
}
