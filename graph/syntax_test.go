package graph

import (
	"errors"
	"strings"
	"testing"
)

// TestBadByte: the first byte YAML refuses, by line and column in
// characters, so the error points where an editor shows it.
func TestBadByte(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line, col int
		found     bool
	}{
		{"clean text", "a: café\n\tb: \"x\"\r\n", 0, 0, false},
		{"a byte that is not UTF-8", "a: 1\nb: caf\xe9\n", 2, 7, true},
		{"a control character after a multi-byte one", "é→\x01", 1, 3, true},
		{"NUL on the third line", "a\nb\n\x00", 3, 1, true},
		{"DEL", "a: \x7f", 1, 4, true},
		{"a C1 control", "a: \u0080", 1, 4, true},
		{"NEL and BOM are allowed", "\ufeffa: \u0085", 0, 0, false},
		{"a surrogate half encoded", "a: \xed\xa0\x80", 1, 4, true},
		{"a non-character", "a: \uffff", 1, 4, true},
		{"an emoji is fine", "a: 😀", 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line, col, found := badByte([]byte(tc.src))
			if line != tc.line || col != tc.col || found != tc.found {
				t.Fatalf("badByte = %d:%d %t, want %d:%d %t", line, col, found, tc.line, tc.col, tc.found)
			}
		})
	}
}

// TestSyntaxErrorPositions: where each kind of parser complaint is
// pointed at.
func TestSyntaxErrorPositions(t *testing.T) {
	for _, tc := range []struct {
		name, src, parser, want string
	}{
		{"no line named is the first", "a: [\n", "yaml: did not find expected node content", "m.yaml:1:1: invalid YAML: did not find expected node content"},
		{"the line's first character", "a:\n    b: [\n", "yaml: line 2: did not find expected ',' or ']'", "m.yaml:2:5: invalid YAML: did not find expected ',' or ']'"},
		{"the second colon of a mapping value", "a:\n  b: c: d\n", "yaml: line 2: mapping values are not allowed in this context",
			"m.yaml:2:7: invalid YAML: mapping values are not allowed in this context"},
		{"a tab up to five lines before", "a:\n\tb: 1\n  c: 2\n  d: 3\n  e: 4\n  f: [\n", "yaml: line 6: found character that cannot start any token",
			"m.yaml:2:1: invalid YAML: a tab in the indentation; YAML indents with spaces only (the parser said: found character that cannot start any token)"},
		{"a tab further back is not blamed", "a:\n\tb: 1\n  c: 2\n  d: 3\n  e: 4\n  f: 5\n  g: 6\n  h: [\n", "yaml: line 8: oops",
			"m.yaml:8:3: invalid YAML: oops"},
		{"a tab after the text is no indentation", "a: 1\t# x\nb: [\n", "yaml: line 2: oops", "m.yaml:2:1: invalid YAML: oops"},
		{"a bad byte is pointed at", "a: 1\nb: x\x01\n", "yaml: control characters are not allowed", "m.yaml:2:5: invalid YAML: control characters are not allowed"},
		{"a line past the end", "a\n", "yaml: line 9: oops", "m.yaml:9:1: invalid YAML: oops"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := syntaxError("m.yaml", []byte(tc.src), errors.New(tc.parser)).Error(); got != tc.want {
				t.Fatalf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// failingWriter fails its writes after the first n.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n == 0 {
		return 0, errors.New("disk full")
	}
	w.n--
	return len(p), nil
}

// TestWriteDOT: each resource a node labelled by reference and alias,
// each edge labelled and styled by its kind; a failed write is said.
func TestWriteDOT(t *testing.T) {
	g := &Graph{
		Vertices: []*Vertex{{Index: 0, Type: "file", Name: "/a"}, {Index: 1, Type: "svc", Name: "web", Alias: "front \"end\""}, {Index: 2, Type: "exec", Name: "x"}},
		Edges:    []Edge{{0, 1, Require}, {0, 2, Subscribe}, {1, 2, Auto}, {0, 1, Order}},
	}
	var b strings.Builder
	if err := g.WriteDOT(&b); err != nil {
		t.Fatal(err)
	}
	want := `digraph ccm {
  rankdir=LR;
  node [shape=box];
  n0 [label="file#/a"];
  n1 [label="svc#web\n(front \"end\")"];
  n2 [label="exec#x"];
  n0 -> n1 [label="require"];
  n0 -> n2 [label="subscribe", color=blue];
  n1 -> n2 [label="auto", style=dashed];
  n0 -> n1 [label="order", style=dashed, color=gray];
}
`
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
	for n := range 9 {
		if err := g.WriteDOT(&failingWriter{n: n}); err == nil || err.Error() != "disk full" {
			t.Errorf("failing after %d writes: %v", n, err)
		}
	}
}
