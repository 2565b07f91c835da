package file

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"golang.org/x/sys/unix"
)

// maxSaved bounds the content kept for a rollback: configuration files,
// not data.
const maxSaved = 16 << 20

// saved is a file's state kept for a rollback.
type saved struct {
	// Kind is present, directory or absent.
	Kind    string `json:"kind"`
	Content []byte `json:"content,omitempty"`
	UID     int    `json:"uid"`
	GID     int    `json:"gid"`
	Mode    Mode   `json:"mode"`
}

// Save keeps the path as it is: absent, a directory and its attributes, or
// a regular file's content and attributes.
func (f *file) Save(context.Context) (_ []byte, err error) {
	v, err := f.look()
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, v.close()) }()
	s := saved{Kind: v.o.kind, UID: int(v.o.uid), GID: int(v.o.gid), Mode: v.o.mode}
	switch v.o.kind {
	case Absent, Directory:
	case Present:
		if s.Content, err = readKept(v); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%s is %s: %w", f.path, describe(v.o.kind), ErrNotUndoable)
	}
	return json.Marshal(s)
}

// readKept reads the file v looks at, up to maxSaved bytes.
func readKept(v *view) ([]byte, error) {
	fh, err := v.dir.Open(v.base, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, maxSaved+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxSaved {
		return nil, fmt.Errorf("%s is larger than %d MiB: %w", v.dir.Join(v.base), maxSaved>>20, ErrNotUndoable)
	}
	return b, nil
}

// Restore puts the saved state back where the path differs from it,
// through the same safe walk as Apply.
func (f *file) Restore(ctx context.Context, data []byte) (_ bool, err error) {
	var s saved
	if err := json.Unmarshal(data, &s); err != nil {
		return false, fmt.Errorf("reading the state kept for %s: %w", f.path, err)
	}
	v, err := f.look()
	if err != nil {
		return false, err
	}
	defer func() { err = errors.Join(err, v.close()) }()
	same, err := s.matches(v)
	if err != nil || same {
		return false, err
	}
	return true, f.put(ctx, v, s)
}

// put changes the path v looks at into s.
func (f *file) put(ctx context.Context, v *view, s saved) error {
	switch {
	case s.Kind == Absent:
		return remove(v, false)
	case s.Kind == Directory && v.o.kind == Directory:
		return v.dir.SetAttrs(v.base, s.UID, s.GID, uint32(s.Mode))
	case s.Kind == Directory:
		return f.makeDir(v, s.UID, s.GID, s.Mode)
	case v.dir == nil:
		return noParent(f.path, v.noParent)
	case v.o.kind == Directory:
		// The change made the directory; an empty one gives way.
		if err := remove(v, false); err != nil {
			return err
		}
	}
	_, err := writeAtomic(ctx, v.dir, v.base, bytes.NewReader(s.Content), s.UID, s.GID, s.Mode, nil)
	return err
}

// matches reports whether the path v looks at is in the saved state.
func (s saved) matches(v *view) (bool, error) {
	o := v.o
	switch {
	case o.kind != s.Kind:
		return false, nil
	case s.Kind == Absent:
		return true, nil
	case int(o.uid) != s.UID || int(o.gid) != s.GID || o.mode != s.Mode:
		return false, nil
	case s.Kind == Directory:
		return true, nil
	case o.size != int64(len(s.Content)):
		return false, nil
	}
	b, err := readKept(v)
	if err != nil {
		return false, err
	}
	return bytes.Equal(b, s.Content), nil
}
