package resources

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

var (
	// ErrDesiredStateFailed is reported when a resource is still not in its
	// desired state after Apply.
	ErrDesiredStateFailed = errors.New("failed to reach desired state")
	// ErrNoSuitableProvider is returned when no provider can manage a resource.
	ErrNoSuitableProvider = errors.New("no suitable provider")
	// ErrNotGroupable is returned for a member ApplyGroup cannot apply
	// with the others: a resource of another kind.
	ErrNotGroupable = errors.New("not groupable with the resources before it")
)

// Pos is a position in a manifest file; Line and Col are 1-based.
type Pos struct {
	File string
	Line int
	Col  int
}

func (p Pos) String() string {
	switch {
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// PosError is a problem found at a position in a manifest.
type PosError struct {
	Pos Pos
	Msg string
}

func (e *PosError) Error() string { return e.Pos.String() + ": " + e.Msg }

// Errorf builds a PosError.
func Errorf(pos Pos, format string, args ...any) *PosError {
	return &PosError{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// ErrorList collects every problem found in a manifest, so they can be
// reported together.
type ErrorList []*PosError

// Add appends err, flattening nested lists and positioning plain errors at pos.
func (l *ErrorList) Add(pos Pos, err error) {
	if err == nil {
		return
	}
	var list ErrorList
	if errors.As(err, &list) {
		*l = append(*l, list...)
		return
	}
	var pe *PosError
	if errors.As(err, &pe) {
		// An error positioned inside a value knows its line but not its file.
		if pe.Pos.File == "" {
			pe.Pos.File = pos.File
		}
		if pe.Pos.Line == 0 {
			pe.Pos = pos
		}
		*l = append(*l, pe)
		return
	}
	*l = append(*l, &PosError{Pos: pos, Msg: err.Error()})
}

// Addf appends a formatted error at pos.
func (l *ErrorList) Addf(pos Pos, format string, args ...any) {
	*l = append(*l, Errorf(pos, format, args...))
}

// Err returns the list sorted by position, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return l
}

func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}
