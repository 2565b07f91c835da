package file

import (
	"context"
	"encoding/hex"
	"errors"
	"path/filepath"
	"time"

	"github.com/reactive-ccm/ccm/resources/internal/ids"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"golang.org/x/sys/unix"
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

// inspect reports the path as a check sees it: reached by the same safe
// walk, a symlink at the path not followed, a regular file's content
// digested. Unlike a check it removes nothing.
func inspect(ctx context.Context, name string) (any, error) {
	path, err := filepath.Abs(name)
	if err != nil {
		return nil, err
	}
	md := metadata{Name: path, Ensure: Absent, Provider: providers[0].Name}
	dir, base, err := safepath.Policy{}.OpenParent(path)
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
		return md, nil
	}
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	st, err := dir.Stat(base)
	if errors.Is(err, unix.ENOENT) {
		return md, nil
	}
	if err != nil {
		return nil, err
	}
	md.Ensure = kindOf(st.Mode)
	md.Owner, md.Group, md.Mode, md.Size = ids.UserName(int(st.Uid)), ids.GroupName(int(st.Gid)), Mode(st.Mode&0o7777).String(), st.Size
	md.MTime = time.Unix(st.Mtim.Unix()).UTC()
	if md.Ensure == Present {
		d, err := hashTarget(ctx, dir, base, st.Size)
		if err != nil {
			return nil, err
		}
		md.Checksum = hex.EncodeToString(d.sum[:])
	}
	return md, nil
}
