package file

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/ids"
)

// Noop messages; all but the last are upstream CCM's words.
const (
	msgCreateFile  = "Would have created the file"
	msgCreateEmpty = "Would have created an empty file with requested attributes"
	msgCreateDir   = "Would have created directory"
	msgRemove      = "Would have removed the file"
	msgRemoveDir   = "Would have removed the directory"
	msgRemoveTree  = "Would have recursively removed the directory"
	msgAttrs       = "Would have changed " // followed by the attributes
)

// Apply converges the path: it removes it, creates the directory, writes
// the file atomically, or, when only owner, group or mode drifted, fixes
// those in place without rewriting. It looks at the path again rather than
// trusting req.Status, which may be stale by the time Apply runs.
//
// Errors do not repeat the resource's id: the engine reports it.
func (f *file) Apply(ctx context.Context, req resources.Request) (_ resources.Change, err error) {
	v, err := f.inspect(ctx)
	if err != nil {
		return resources.Change{}, err
	}
	defer func() { err = errors.Join(err, v.close()) }()
	if v.d.none() {
		return resources.Change{}, nil
	}
	msg, err := f.plan(v.o, v.d)
	if err != nil {
		return resources.Change{}, err
	}
	if req.Noop {
		return resources.Change{Changed: true, NoopMessage: msg}, nil
	}
	if err := f.act(ctx, v); err != nil {
		return resources.Change{}, err
	}
	return resources.Change{Changed: true}, nil
}

// plan says what act would do, as a noop message, or why it cannot.
func (f *file) plan(o observed, d drift) (string, error) {
	switch {
	case f.ensure == Absent && o.kind == Directory && f.force:
		return msgRemoveTree, nil
	case f.ensure == Absent && o.kind == Directory:
		return msgRemoveDir, nil
	case f.ensure == Absent:
		return msgRemove, nil
	case f.ensure == Present && o.kind == Directory:
		return "", fmt.Errorf("%s %w; remove it first or use ensure: directory", f.path, ErrIsDirectory)
	case d.kind && f.ensure == Directory:
		return msgCreateDir, nil
	case d.kind && o.kind == Absent && f.content == nil:
		return msgCreateEmpty, nil
	case d.kind || d.content:
		return msgCreateFile, nil
	}
	return msgAttrs + resources.JoinAnd(d.attrs), nil
}

// act changes the host as plan described, relative to the parent
// directory the check opened.
func (f *file) act(ctx context.Context, v *view) error {
	if f.ensure == Absent {
		return remove(v, f.force)
	}
	uid, gid, err := ids.Resolve(f.owner, f.group)
	if err != nil {
		return err
	}
	switch {
	case f.ensure == Directory && v.d.kind:
		return f.makeDir(v, uid, gid, f.mode)
	case v.d.kind || v.d.content:
		return f.write(ctx, v, uid, gid)
	}
	return chownHint(v.dir.SetAttrs(v.base, uid, gid, uint32(f.mode)))
}

// write stores the wanted content, or an empty file when the content is
// not managed and the file is missing. The validate command, if any, reads
// the new content before it replaces the old.
func (f *file) write(ctx context.Context, v *view, uid, gid int) error {
	if v.dir == nil {
		return noParent(f.path, v.noParent)
	}
	if f.content == nil {
		_, err := writeAtomic(ctx, v.dir, v.base, strings.NewReader(""), uid, gid, f.mode, nil)
		return err
	}
	r, err := f.content.open(f.links)
	if err != nil {
		return err
	}
	defer r.Close()
	var check func(*os.File) error
	if f.validate != nil {
		check = func(tmp *os.File) error { return f.validate.Run(ctx, tmp) }
	}
	dr := newDigestReader(r)
	w, err := writeAtomic(ctx, v.dir, v.base, dr, uid, gid, f.mode, check)
	if err != nil {
		return err
	}
	d := dr.digest()
	f.content.wrote(d)
	if w.ok {
		f.mine.set(w.stamp, d)
	}
	return nil
}
