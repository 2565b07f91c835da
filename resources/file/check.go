package file

import (
	"context"
	"errors"
	"fmt"
	"syscall"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/ids"
)

// Kinds of path a check can observe, in the ensure vocabulary where one
// exists.
const (
	kindSymlink = "symlink"
	kindSpecial = "special"
)

// observed is what one lstat of the path found.
type observed struct {
	kind     string
	uid, gid uint32
	// mode holds the permission bits with setuid, setgid and sticky, so
	// drift that adds them is seen too.
	mode Mode
	size int64
}

// observe looks at the path without following a symlink: a link where a
// file or directory is wanted is drift, not the thing it points to.
func (f *file) observe() (observed, error) {
	var st syscall.Stat_t
	err := syscall.Lstat(f.path, &st)
	if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR) {
		return observed{kind: Absent}, nil
	}
	if err != nil {
		return observed{}, fmt.Errorf("lstat %s: %w", f.path, err)
	}
	o := observed{uid: st.Uid, gid: st.Gid, mode: Mode(st.Mode & 0o7777), size: st.Size}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		o.kind = Present
	case syscall.S_IFDIR:
		o.kind = Directory
	case syscall.S_IFLNK:
		o.kind = kindSymlink
	default:
		o.kind = kindSpecial
	}
	return o, nil
}

// drift is how the observed path differs from the wanted one.
type drift struct {
	// kind is set when the path is not of the wanted kind; nothing else is
	// compared then.
	kind bool
	// content is set when a managed file's content differs.
	content bool
	// attrs names the attributes that differ: owner, group, mode.
	attrs []string
	// diffs say what differs, observed → desired; the content's entry is
	// added by Check, which alone needs its details.
	diffs []resources.Difference
}

func (d drift) none() bool { return len(d.diffs) == 0 && !d.content }

// compare finds the drift of o. Attributes are compared before content
// because they are free once the path is stat'ed.
func (f *file) compare(ctx context.Context, o observed) (drift, error) {
	var d drift
	if o.kind != f.ensure {
		d.kind = true
		d.diffs = append(d.diffs, resources.Differs("ensure", o.kind, f.ensure))
		return d, nil
	}
	if f.ensure == Absent {
		return d, nil
	}
	if err := f.compareAttrs(o, &d); err != nil {
		return d, err
	}
	if f.content == nil {
		return d, nil
	}
	want, err := f.content.digest(ctx)
	if err != nil {
		return d, err
	}
	if o.size != want.size {
		d.content = true
	} else {
		have, err := hashFile(ctx, f.path)
		if err != nil {
			return d, err
		}
		d.content = have != want
	}
	return d, nil
}

func (f *file) compareAttrs(o observed, d *drift) error {
	uid, gid, err := ids.Resolve(f.owner, f.group)
	if err != nil {
		return err
	}
	if int(o.uid) != uid {
		d.attrs = append(d.attrs, "owner")
		d.diffs = append(d.diffs, resources.Differs("owner", ids.UserName(int(o.uid)), f.owner))
	}
	if int(o.gid) != gid {
		d.attrs = append(d.attrs, "group")
		d.diffs = append(d.diffs, resources.Differs("group", ids.GroupName(int(o.gid)), f.group))
	}
	if o.mode != f.mode {
		d.attrs = append(d.attrs, "mode")
		d.diffs = append(d.diffs, resources.Differs("mode", o.mode.String(), f.mode.String()))
	}
	return nil
}

// inspect observes the path and compares it with the wanted state.
func (f *file) inspect(ctx context.Context) (observed, drift, error) {
	o, err := f.observe()
	if err != nil {
		return o, drift{}, err
	}
	d, err := f.compare(ctx, o)
	return o, d, err
}

// Check reports the kind of path found (present, absent, directory,
// symlink or special) and whether it is the wanted state, with what
// differs: the content first, then owner, group and mode. It never writes.
func (f *file) Check(ctx context.Context) (resources.Status, error) {
	o, d, err := f.inspect(ctx)
	if err != nil {
		return resources.Status{Ensure: o.kind}, err
	}
	st := resources.Status{Ensure: o.kind, Desired: d.none(), Differences: d.diffs}
	if d.content {
		cd, err := f.contentDifference(ctx)
		if err != nil {
			return st, err
		}
		st.Differences = append([]resources.Difference{cd}, st.Differences...)
	}
	return st, nil
}
