package resources_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
)

func TestPosString(t *testing.T) {
	for _, tc := range []struct {
		pos  resources.Pos
		want string
	}{
		{resources.Pos{File: "m.yaml", Line: 3, Col: 5}, "m.yaml:3:5"},
		{resources.Pos{File: "m.yaml", Line: 3}, "m.yaml:3"},
		{resources.Pos{File: "m.yaml"}, "m.yaml"},
		{resources.Pos{File: "m.yaml", Col: 5}, "m.yaml"},
	} {
		if got := tc.pos.String(); got != tc.want {
			t.Errorf("%#v = %q, want %q", tc.pos, got, tc.want)
		}
	}
}

// TestErrorListAdd: every problem keeps the most precise position known,
// nested lists are flattened, and nothing is added for nil.
func TestErrorListAdd(t *testing.T) {
	at := resources.Pos{File: "m.yaml", Line: 4, Col: 2}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"nil adds nothing", nil, ""},
		{"a plain error is placed at pos", errors.New("bad"), "m.yaml:4:2: bad"},
		{"a wrapped plain error too", fmt.Errorf("owner: %w", errors.New("bad")), "m.yaml:4:2: owner: bad"},
		{"a positioned error keeps its line and gets the file", &resources.PosError{Pos: resources.Pos{Line: 9, Col: 7}, Msg: "deep"}, "m.yaml:9:7: deep"},
		{"a positioned error from another file keeps it", resources.Errorf(resources.Pos{File: "o.yaml", Line: 1, Col: 1}, "there"), "o.yaml:1:1: there"},
		{"an error without a line gets pos", &resources.PosError{Msg: "nowhere"}, "m.yaml:4:2: nowhere"},
		{"a wrapped positioned error is found", fmt.Errorf("x: %w", &resources.PosError{Pos: resources.Pos{Line: 2, Col: 1}, Msg: "in"}), "m.yaml:2:1: in"},
		{"a list is flattened, in its order", resources.ErrorList{resources.Errorf(resources.Pos{File: "a", Line: 2}, "b"), resources.Errorf(resources.Pos{File: "a", Line: 1}, "a")},
			"a:2: b\na:1: a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l resources.ErrorList
			l.Add(at, tc.err)
			if got := l.Error(); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestErrorListErr: the problems come sorted by file, line and column,
// problems at one position in the order they were found; an empty list
// is no error at all.
func TestErrorListErr(t *testing.T) {
	var l resources.ErrorList
	if err := l.Err(); err != nil {
		t.Fatalf("an empty list is the error %#v", err)
	}
	for _, p := range []struct {
		file      string
		line, col int
		msg       string
	}{
		{"b.yaml", 1, 1, "b first"},
		{"a.yaml", 10, 1, "a line 10"},
		{"a.yaml", 2, 9, "a 2:9"},
		{"a.yaml", 2, 3, "a 2:3 found first"},
		{"a.yaml", 2, 3, "a 2:3 found second"},
	} {
		l.Addf(resources.Pos{File: p.file, Line: p.line, Col: p.col}, "%s", p.msg)
	}
	want := "a.yaml:2:3: a 2:3 found first\na.yaml:2:3: a 2:3 found second\na.yaml:2:9: a 2:9\na.yaml:10:1: a line 10\nb.yaml:1:1: b first"
	err := l.Err()
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}
	var list resources.ErrorList
	if !errors.As(err, &list) || len(list) != 5 {
		t.Fatalf("the error is not the list of 5: %#v", err)
	}
}
