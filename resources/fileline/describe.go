package fileline

import (
	"fmt"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/textdiff"
	"github.com/reactive-ccm/ccm/resources/internal/textfile"
)

// subject is what the edit manages, in messages: "line" or "block".
func (e *edit) subject() string {
	if e.block != nil {
		return "block"
	}
	return "line"
}

// difference describes a change as a check reports it, observed →
// desired. Values taken from the file's lines are content: a sensitive
// resource shows them redacted.
func (e *edit) difference(c change) resources.Difference {
	switch c.kind {
	case textfile.Added:
		d := resources.Differs(e.subject(), Absent, Present)
		d.Note = fmt.Sprintf("to insert at line %d", c.at)
		return d
	case textfile.Removed:
		d := resources.Differs(e.subject(), Present, Absent)
		d.Note = lineSpan(c.at, len(c.old))
		return d
	}
	if e.block != nil {
		d := textdiff.Texts(textfile.Join(c.old), textfile.Join(e.block))
		d.Property = "block"
		return d
	}
	note := fmt.Sprintf("line %d", c.at)
	if c.extra > 0 {
		note += fmt.Sprintf(", and %d later matching %s to remove", c.extra, plural(c.extra, "line"))
	}
	return resources.Difference{Property: "line", Observed: c.old[0], Desired: e.line, Note: note, Content: true}
}

// noopMessage says what an apply would have done.
func (e *edit) noopMessage(c change, path string) string {
	switch c.kind {
	case textfile.Added:
		return fmt.Sprintf("Would have added the %s to %s at line %d", e.subject(), path, c.at)
	case textfile.Removed:
		return fmt.Sprintf("Would have removed %s of %s", lineSpan(c.at, len(c.old)), path)
	}
	if e.block != nil {
		return fmt.Sprintf("Would have replaced the block at line %d of %s", c.at, path)
	}
	return fmt.Sprintf("Would have replaced line %d of %s", c.at, path)
}

// lineSpan names n lines, the first at line at: "line 3", "4 lines from
// line 3".
func lineSpan(at, n int) string {
	if n == 1 {
		return fmt.Sprintf("line %d", at)
	}
	return fmt.Sprintf("%d lines from line %d", n, at)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
