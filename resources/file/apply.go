package file

import (
	"context"
	"fmt"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/ids"
)

// Noop messages; the first three are upstream CCM's words.
const (
	msgCreateFile = "Would have created the file"
	msgCreateDir  = "Would have created directory"
	msgRemove     = "Would have removed the file"
	msgAttrs      = "Would have changed " // followed by the attributes
)

// Apply converges the path: it removes it, creates the directory, writes
// the file atomically, or, when only owner, group or mode drifted, fixes
// those in place without rewriting. It looks at the path again rather than
// trusting req.Status, which may be stale by the time Apply runs.
//
// Errors do not repeat the resource's id: the engine reports it.
func (f *file) Apply(ctx context.Context, req resources.Request) (resources.Change, error) {
	o, d, err := f.inspect(ctx)
	if err != nil || d.none() {
		return resources.Change{}, err
	}
	msg, err := f.plan(o, d)
	if err != nil {
		return resources.Change{}, err
	}
	if req.Noop {
		return resources.Change{Changed: true, NoopMessage: msg}, nil
	}
	if err := f.act(ctx, o, d); err != nil {
		return resources.Change{}, err
	}
	return resources.Change{Changed: true}, nil
}

// plan says what act would do, as a noop message, or why it cannot.
func (f *file) plan(o observed, d drift) (string, error) {
	switch {
	case f.ensure == Absent:
		return msgRemove, nil
	case f.ensure == Present && o.kind == Directory:
		return "", fmt.Errorf("%s %w; remove it first or use ensure: directory", f.path, ErrIsDirectory)
	case d.kind && f.ensure == Directory:
		return msgCreateDir, nil
	case d.kind || d.content:
		return msgCreateFile, nil
	}
	return msgAttrs + joinAnd(d.attrs), nil
}

// act changes the host as plan described.
func (f *file) act(ctx context.Context, o observed, d drift) error {
	if f.ensure == Absent {
		return remove(f.path, o.kind == Directory, f.force)
	}
	uid, gid, err := ids.Resolve(f.owner, f.group)
	if err != nil {
		return err
	}
	switch {
	case f.ensure == Directory && d.kind:
		return makeDir(f.path, o.kind != Absent, uid, gid, f.mode)
	case d.kind || d.content:
		return f.write(ctx, uid, gid)
	}
	return setAttrs(f.path, uid, gid, f.mode)
}

// write stores the wanted content, or an empty file when the content is
// not managed and the file is missing. The validate command, if any, sees
// the new content before it replaces the old.
func (f *file) write(ctx context.Context, uid, gid int) error {
	if f.content == nil {
		return writeAtomic(f.path, strings.NewReader(""), uid, gid, f.mode, nil)
	}
	r, err := f.content.open()
	if err != nil {
		return err
	}
	defer r.Close()
	var check func(string) error
	if f.validate != nil {
		check = func(tmp string) error { return f.validate.Run(ctx, tmp) }
	}
	return writeAtomic(f.path, r, uid, gid, f.mode, check)
}

// joinAnd lists words as "owner", "owner and mode", "owner, group and mode".
func joinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
