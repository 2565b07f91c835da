package resources

import "strings"

// Difference is one property whose observed value is not the desired
// one, as a check found it.
type Difference struct {
	// Property names what differs: "ensure", "mode", "owner", "content",
	// "enable", a scaffold file's path.
	Property string `json:"property"`
	// Observed and Desired are the values in the type's own vocabulary:
	// "0600", "www", "stopped", "2.0-1", "sha256:1a2b3c4d".
	Observed string `json:"observed"`
	Desired  string `json:"desired"`
	// Note qualifies the values: "+3 −1 lines", "onlyif exited 0".
	Note string `json:"note,omitempty"`
	// Diff is a unified diff from the observed to the desired text, for
	// text content small enough to show; never for binary content. The
	// engine keeps it only when asked (--diff).
	Diff string `json:"diff,omitempty"`
	// Content marks values derived from managed content (digests, line
	// counts, diffs): a resource marked sensitive shows them redacted.
	Content bool `json:"-"`
	// Text, when set, is how the difference reads in messages, for
	// wording upstream CCM's users rely on.
	Text string `json:"-"`
}

// Differs builds the common Difference of one property.
func Differs(property, observed, desired string) Difference {
	return Difference{Property: property, Observed: observed, Desired: desired}
}

// String reads "mode 0600 → 0644", "content sha256:1a2b… → sha256:9f8e…
// (+3 −1 lines)"; an ensure difference leaves out its name: "absent →
// present". Text, when set, is used instead.
func (d Difference) String() string {
	if d.Text != "" {
		return d.Text
	}
	var b strings.Builder
	if d.Property != "ensure" {
		b.WriteString(d.Property)
		b.WriteByte(' ')
	}
	b.WriteString(orNone(d.Observed))
	b.WriteString(" → ")
	b.WriteString(orNone(d.Desired))
	if d.Note != "" {
		b.WriteString(" (" + d.Note + ")")
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

// JoinAnd lists the names of properties for a message: "owner", "owner
// and mode", "owner, group and mode".
func JoinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
