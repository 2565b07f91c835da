package fileline

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/textfile"
)

func TestEditApply(t *testing.T) {
	re := regexp.MustCompile
	block := func(e edit) edit {
		e.begin, e.end = "# BEGIN", "# END"
		return e
	}
	tests := []struct {
		name  string
		edit  edit
		in    string
		want  string
		kind  string
		at    int
		extra int
	}{
		{"line already there", edit{ensure: Present, line: "b", replace: true}, "a|b|c", "a|b|c", "", 0, 0},
		{"line appended", edit{ensure: Present, line: "d", replace: true}, "a|b|c", "a|b|c|d", textfile.Added, 4, 0},
		{"line appended to an empty file", edit{ensure: Present, line: "d", replace: true}, "", "d", textfile.Added, 1, 0},
		{"line after the last anchor", edit{ensure: Present, line: "x", after: re("^a"), replace: true}, "a1|b|a2|c", "a1|b|a2|x|c", textfile.Added, 4, 0},
		{"line before the first anchor", edit{ensure: Present, line: "x", before: re("^a"), replace: true}, "b|a1|a2", "b|x|a1|a2", textfile.Added, 2, 0},
		{"missing anchor appends", edit{ensure: Present, line: "x", after: re("^z"), replace: true}, "a|b", "a|b|x", textfile.Added, 3, 0},
		{"match replaced in place", edit{ensure: Present, line: "k=2", match: re("^k="), replace: true}, "a|k=1|b", "a|k=2|b", textfile.Replaced, 2, 0},
		{"later matches removed", edit{ensure: Present, line: "k=2", match: re("^k="), replace: true}, "k=1|a|k=3|k=2", "k=2|a", textfile.Replaced, 1, 2},
		{"match equal and alone", edit{ensure: Present, line: "k=2", match: re("^k="), replace: true}, "a|k=2", "a|k=2", "", 0, 0},
		{"no match inserts", edit{ensure: Present, line: "k=2", match: re("^k="), after: re("^a"), replace: true}, "a|b", "a|k=2|b", textfile.Added, 2, 0},
		{"replace false leaves a match", edit{ensure: Present, line: "k=2", match: re("^k=")}, "k=9", "k=9", "", 0, 0},
		{"replace false seeds", edit{ensure: Present, line: "k=2", match: re("^k=")}, "a", "a|k=2", textfile.Added, 2, 0},
		{"absent line removed everywhere", edit{ensure: Absent, line: "b"}, "b|a|b", "a", textfile.Removed, 1, 0},
		{"absent match removed", edit{ensure: Absent, match: re("^#")}, "a|#x|b|#y", "a|b", textfile.Removed, 2, 0},
		{"absent and gone", edit{ensure: Absent, line: "b"}, "a", "a", "", 0, 0},
		{"block inserted", block(edit{ensure: Present, block: []string{"x", "y"}, replace: true}), "a", "a|# BEGIN|x|y|# END", textfile.Added, 2, 0},
		{"block before anchor", block(edit{ensure: Present, block: []string{"x"}, before: re("^a"), replace: true}), "a", "# BEGIN|x|# END|a", textfile.Added, 1, 0},
		{"block in order", block(edit{ensure: Present, block: []string{"x"}, replace: true}), "a|# BEGIN|x|# END|b", "a|# BEGIN|x|# END|b", "", 0, 0},
		{"block replaced", block(edit{ensure: Present, block: []string{"x", "y"}, replace: true}), "a|# BEGIN|z|# END|b", "a|# BEGIN|x|y|# END|b", textfile.Replaced, 3, 0},
		{"empty block", block(edit{ensure: Present, block: []string{}, replace: true}), "# BEGIN|z|# END", "# BEGIN|# END", textfile.Replaced, 2, 0},
		{"block seeded once", block(edit{ensure: Present, block: []string{"x"}}), "# BEGIN|z|# END", "# BEGIN|z|# END", "", 0, 0},
		{"block removed", block(edit{ensure: Absent, block: []string{"x"}}), "a|# BEGIN|z|# END|b", "a|b", textfile.Removed, 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := split(tt.in)
			orig := slices.Clone(in)
			out, c, err := tt.edit.apply(in)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(out, "|"); got != tt.want {
				t.Errorf("lines %q, want %q", got, tt.want)
			}
			if c.kind != tt.kind || c.at != tt.at || c.extra != tt.extra {
				t.Errorf("change %+v, want kind %q at %d extra %d", c, tt.kind, tt.at, tt.extra)
			}
			if !slices.Equal(in, orig) {
				t.Errorf("apply modified its input: %q", in)
			}
			if again, c2, _ := tt.edit.apply(out); c2.kind != "" || !slices.Equal(again, out) {
				t.Errorf("applied twice: second change %+v gives %q", c2, again)
			}
		})
	}
}

func TestBlockWithoutEndMarkerIsLeftAlone(t *testing.T) {
	e := edit{ensure: Present, block: []string{"x"}, begin: "# BEGIN", end: "# END", replace: true}
	if _, _, err := e.apply([]string{"a", "# BEGIN", "x"}); !errors.Is(err, ErrNoEndMarker) {
		t.Fatalf("err = %v, want ErrNoEndMarker", err)
	}
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "|")
}
