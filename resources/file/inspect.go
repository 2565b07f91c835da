package file

import (
	"context"
	"encoding/hex"
	"path/filepath"
	"syscall"
	"time"

	"github.com/reactive-ccm/ccm/resources/internal/ids"
)

// metadata is what `ccm status file NAME` shows: upstream's file
// metadata, plus the path's kind in the ensure vocabulary.
type metadata struct {
	Name     string    `json:"name" yaml:"name"`
	Ensure   string    `json:"ensure" yaml:"ensure"`
	Checksum string    `json:"checksum,omitempty" yaml:"checksum,omitempty"`
	Owner    string    `json:"owner,omitempty" yaml:"owner,omitempty"`
	Group    string    `json:"group,omitempty" yaml:"group,omitempty"`
	Mode     string    `json:"mode,omitempty" yaml:"mode,omitempty"`
	Provider string    `json:"provider" yaml:"provider"`
	MTime    time.Time `json:"mtime,omitzero" yaml:"mtime,omitempty"`
	Size     int64     `json:"size,omitempty" yaml:"size,omitempty"`
}

// inspect reports the path as a check sees it: without following a
// symlink, with the SHA-256 of a regular file's content.
func inspect(ctx context.Context, name string) (any, error) {
	path, err := filepath.Abs(name)
	if err != nil {
		return nil, err
	}
	f := &file{path: path}
	o, err := f.observe()
	if err != nil {
		return nil, err
	}
	md := metadata{Name: path, Ensure: o.kind, Provider: providers[0].Name}
	if o.kind == Absent {
		return md, nil
	}
	md.Owner, md.Group, md.Mode, md.Size = ids.UserName(int(o.uid)), ids.GroupName(int(o.gid)), o.mode.String(), o.size
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err == nil {
		md.MTime = time.Unix(st.Mtim.Unix()).UTC()
	}
	if o.kind == Present {
		d, err := hashFile(ctx, path)
		if err != nil {
			return nil, err
		}
		md.Checksum = hex.EncodeToString(d.sum[:])
	}
	return md, nil
}
