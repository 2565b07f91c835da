package file

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"go.yaml.in/yaml/v3"
)

// Mode is a permission mode written in octal: "644", "0644", "0o644" and
// "0O644" are the same mode. It never carries setuid, setgid or sticky bits.
type Mode fs.FileMode

// ParseMode reads an octal mode as manifests write it.
func ParseMode(s string) (Mode, error) {
	digits := strings.TrimPrefix(strings.TrimPrefix(s, "0o"), "0O")
	v, err := strconv.ParseUint(digits, 8, 32)
	if err != nil || digits == "" {
		return 0, fmt.Errorf("%q is not an octal mode; write it like \"0644\"", s)
	}
	if v > 0o777 {
		return 0, fmt.Errorf("%q is above 0777; setuid, setgid and sticky bits cannot be set through mode", s)
	}
	return Mode(v), nil
}

// UnmarshalYAML reads the mode as written, so an unquoted 644 or 0644 in a
// manifest means octal too.
func (m *Mode) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return fmt.Errorf("expected an octal mode such as \"0644\"")
	}
	v, err := ParseMode(n.Value)
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// String prints the mode as four octal digits, "0644".
func (m Mode) String() string { return fmt.Sprintf("%04o", uint32(m)) }

// dir is the mode a directory gets: as upstream, every triad that can read
// or write can also search, so 0644 becomes 0755 and 0600 becomes 0700.
func (m Mode) dir() Mode {
	for shift := 0; shift < 9; shift += 3 {
		if m&(0o6<<shift) != 0 {
			m |= 0o1 << shift
		}
	}
	return m
}

// PropertyKind says a mode is written as a string (or an unquoted number).
func (Mode) PropertyKind() resources.Kind { return resources.KindString }

// JSONSchema accepts the spellings UnmarshalYAML does.
func (Mode) JSONSchema() map[string]any {
	return map[string]any{"anyOf": []any{
		map[string]any{"type": "string", "pattern": `^(0[oO]?)?[0-7]{1,4}$`},
		map[string]any{"type": "integer", "minimum": 0, "maximum": 777},
	}}
}
