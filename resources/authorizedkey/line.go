package authorizedkey

import (
	"strings"

	"github.com/reactive-ccm/ccm/resources/internal/textfile"
)

// entry is one key line of authorized_keys, split.
type entry struct {
	options, typ, key, comment string
}

// String is the entry as a line.
func (e entry) String() string {
	var b strings.Builder
	if e.options != "" {
		b.WriteString(e.options + " ")
	}
	b.WriteString(e.typ + " " + e.key)
	if e.comment != "" {
		b.WriteString(" " + e.comment)
	}
	return b.String()
}

// short is the entry for messages: the key cut to its last characters.
func (e entry) short() string {
	k := e.key
	if len(k) > 12 {
		k = "…" + k[len(k)-12:]
	}
	e.key = k
	return e.String()
}

// parse splits a line of authorized_keys; ok is false for a blank line,
// a comment or a line that is not a key.
func parse(line string) (e entry, ok bool) {
	rest := strings.TrimLeft(line, " \t")
	if rest == "" || rest[0] == '#' {
		return entry{}, false
	}
	if !isKeyType(firstWord(rest)) {
		e.options, rest = splitOptions(rest)
	}
	fields := strings.Fields(rest)
	if len(fields) < 2 || !isKeyType(fields[0]) {
		return entry{}, false
	}
	e.typ, e.key = fields[0], fields[1]
	if len(fields) > 2 {
		e.comment = strings.Join(fields[2:], " ")
	}
	return e, true
}

func firstWord(s string) string {
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i]
	}
	return s
}

// splitOptions cuts the options off the front of a line: up to the first
// space or tab outside double quotes, a backslash escaping a quote.
func splitOptions(s string) (options, rest string) {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case (c == ' ' || c == '\t') && !quoted:
			return s[:i], strings.TrimLeft(s[i:], " \t")
		}
	}
	return s, ""
}

// keyTypes are the key types sshd accepts.
var keyTypes = map[string]bool{
	"ssh-ed25519": true, "ssh-rsa": true, "ssh-dss": true,
	"ecdsa-sha2-nistp256": true, "ecdsa-sha2-nistp384": true, "ecdsa-sha2-nistp521": true,
	"sk-ssh-ed25519@openssh.com": true, "sk-ecdsa-sha2-nistp256@openssh.com": true,
	"ssh-ed25519-cert-v01@openssh.com": true, "ssh-rsa-cert-v01@openssh.com": true,
	"ecdsa-sha2-nistp256-cert-v01@openssh.com": true, "ecdsa-sha2-nistp384-cert-v01@openssh.com": true,
	"ecdsa-sha2-nistp521-cert-v01@openssh.com": true,
}

func isKeyType(s string) bool { return keyTypes[s] }

// change is what an edit does to the file's lines; the zero change leaves
// them alone.
type change struct {
	// kind is textfile.Added, Replaced or Removed; "" for none.
	kind string
	// at is the number, from 1, of the first line concerned.
	at int
	// old is the line replaced or the first line removed, and n how many
	// lines held the key.
	old entry
	n   int
}

// edit returns lines with want present (or, when absent, without the
// key), and what changed; lines themselves when nothing is to change.
func edit(lines []string, want entry, absent bool) ([]string, change) {
	var hits []int
	var first entry
	for i, l := range lines {
		if e, ok := parse(l); ok && e.key == want.key {
			if hits = append(hits, i); len(hits) == 1 {
				first = e
			}
		}
	}
	line := want.String()
	out, kind, at := textfile.PutLine(lines, hits, line, absent, func(l string) bool { return l == line })
	if kind == "" {
		return lines, change{}
	}
	return out, change{kind: kind, at: at, old: first, n: len(hits)}
}
