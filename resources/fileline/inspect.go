package fileline

import (
	"context"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/reactive-ccm/ccm/resources/internal/ids"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/internal/textdiff"
	"github.com/reactive-ccm/ccm/resources/internal/textfile"
)

// metadata is what `ccm status file_line PATH` shows of a file: whether
// it exists, its size in lines, its digest, its attributes and the
// blocks with default markers it holds.
type metadata struct {
	Path     string   `json:"path" yaml:"path"`
	Ensure   string   `json:"ensure" yaml:"ensure"`
	Lines    int      `json:"lines" yaml:"lines"`
	Checksum string   `json:"checksum,omitempty" yaml:"checksum,omitempty"`
	Owner    string   `json:"owner,omitempty" yaml:"owner,omitempty"`
	Group    string   `json:"group,omitempty" yaml:"group,omitempty"`
	Mode     string   `json:"mode,omitempty" yaml:"mode,omitempty"`
	Blocks   []string `json:"blocks,omitempty" yaml:"blocks,omitempty"`
	Provider string   `json:"provider" yaml:"provider"`
}

// defaultBegin starts every default begin marker.
const defaultBegin = "# BEGIN CCM "

// inspect reads the file at name (a path) as a check does.
func inspect(_ context.Context, name string) (any, error) {
	path, err := filepath.Abs(name)
	if err != nil {
		return nil, err
	}
	f, err := textfile.Read(safepath.Policy{}, path)
	if err != nil {
		return nil, err
	}
	md := metadata{Path: path, Ensure: Absent, Provider: providers[0].Name}
	if !f.Exists {
		return md, f.Close()
	}
	lines := textfile.Lines(f.Content)
	md.Ensure, md.Lines, md.Checksum = Present, len(lines), textdiff.Digest(sha256.Sum256(f.Content))
	md.Owner, md.Group, md.Mode = ids.UserName(f.UID), ids.GroupName(f.GID), fmt.Sprintf("%04o", f.Mode)
	for _, l := range lines {
		if name, ok := strings.CutPrefix(l, defaultBegin); ok {
			md.Blocks = append(md.Blocks, name)
		}
	}
	return md, f.Close()
}
