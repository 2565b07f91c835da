package file

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
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
func (f *file) Save(context.Context) ([]byte, error) {
	o, err := f.observe()
	if err != nil {
		return nil, err
	}
	s := saved{Kind: o.kind, UID: int(o.uid), GID: int(o.gid), Mode: o.mode}
	switch o.kind {
	case Absent, Directory:
	case Present:
		if s.Content, err = readBounded(f.path); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%s is %s: %w", f.path, describe(o.kind), ErrNotUndoable)
	}
	return json.Marshal(s)
}

func readBounded(path string) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, maxSaved+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxSaved {
		return nil, fmt.Errorf("%s is larger than %d MiB: %w", path, maxSaved>>20, ErrNotUndoable)
	}
	return b, nil
}

// Restore puts the saved state back where the path differs from it.
func (f *file) Restore(_ context.Context, data []byte) (bool, error) {
	var s saved
	if err := json.Unmarshal(data, &s); err != nil {
		return false, fmt.Errorf("reading the state kept for %s: %w", f.path, err)
	}
	o, err := f.observe()
	if err != nil {
		return false, err
	}
	same, err := s.matches(f.path, o)
	if err != nil || same {
		return false, err
	}
	switch s.Kind {
	case Absent:
		return true, remove(f.path, o.kind == Directory, false)
	case Directory:
		if o.kind == Directory {
			return true, setAttrs(f.path, s.UID, s.GID, s.Mode)
		}
		return true, makeDir(f.path, o.kind != Absent, s.UID, s.GID, s.Mode)
	}
	if o.kind == Directory {
		return false, fmt.Errorf("%s %w; cannot put the file back", f.path, ErrIsDirectory)
	}
	return true, writeAtomic(f.path, bytes.NewReader(s.Content), s.UID, s.GID, s.Mode, nil)
}

// matches reports whether the path, observed as o, is in the saved state.
func (s saved) matches(path string, o observed) (bool, error) {
	if o.kind != s.Kind {
		return false, nil
	}
	if s.Kind == Absent {
		return true, nil
	}
	if int(o.uid) != s.UID || int(o.gid) != s.GID || o.mode != s.Mode {
		return false, nil
	}
	if s.Kind == Directory {
		return true, nil
	}
	if o.size != int64(len(s.Content)) {
		return false, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	return bytes.Equal(b, s.Content), nil
}
