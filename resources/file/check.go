package file

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"math"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/ids"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"golang.org/x/sys/unix"
)

// Kinds of path a check can observe, in the ensure vocabulary where one
// exists.
const (
	kindSymlink = "symlink"
	kindSpecial = "special"
)

// observed is what one look at the path found.
type observed struct {
	kind     string
	uid, gid uint32
	// mode holds the permission bits with setuid, setgid and sticky, so
	// drift that adds them is seen too.
	mode Mode
	size int64
}

// view is one look at the path: its parent directory, opened by a safe
// walk and kept open for the apply that follows, and what is in it. A
// quick view (peek) has no directory, only the file open for reading.
type view struct {
	// dir is nil when the parent does not exist (noParent then says why)
	// and in a quick view.
	dir      *safepath.Dir
	noParent error
	base     string
	// file is the regular file at the path, open, in a quick view.
	file *safepath.File
	// known is the digest of the file at the path when the view found
	// the file this resource wrote, unchanged, and did not open it for
	// reading; unread is set when it did not open it although it did not
	// find it unchanged.
	known  *digest
	unread bool
	o      observed
	d      drift
}

func (v *view) close() error {
	var err error
	if v.file != nil {
		err = v.file.Close()
	}
	return errors.Join(err, v.dir.Close())
}

// peek looks at the path as cheaply as a check can: one open of the path
// itself (no symlink followed on the way that root alone does not
// control, none at the end) and one stat; a file with managed content is
// opened for reading, for hashing, unless it may be the file this
// resource just wrote: its stamp tells, and its digest is known. The
// temporary files a killed run left are removed first; after the first
// look at a directory that costs nothing.
func (f *file) peek() (*view, error) {
	if err := f.links.RemoveLeftovers(f.path); err != nil {
		return nil, err
	}
	stamp, sum, mine := f.mine.take()
	read := f.content != nil && f.ensure == Present
	st, file, err := f.links.Stat(f.path, read && !mine)
	if errors.Is(err, unix.ENOENT) {
		return &view{o: observed{kind: Absent}}, nil
	}
	if err != nil {
		return nil, err
	}
	v := &view{file: file, o: observedOf(&st)}
	if read && mine {
		v.known = know(stamp, sum, &st)
		v.unread = v.known == nil
	}
	return v, nil
}

func observedOf(st *unix.Stat_t) observed {
	return observed{uid: st.Uid, gid: st.Gid, mode: Mode(st.Mode & 0o7777), size: st.Size, kind: kindOf(st.Mode)}
}

// hashTarget digests the file the view observed.
func (v *view) hashTarget(ctx context.Context) (digest, error) {
	if v.known != nil {
		return *v.known, nil
	}
	if v.file != nil {
		return hashFile(ctx, v.file, v.o.size)
	}
	return hashTarget(ctx, v.dir, v.base, v.o.size)
}

// holds reports whether the file the view observed, of len(text) bytes,
// holds text.
func (v *view) holds(ctx context.Context, text string) (bool, error) {
	if v.file != nil {
		return sameContent(ctx, v.file, text)
	}
	f, err := v.dir.Open(v.base, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		return false, err
	}
	defer f.Close()
	return sameContent(ctx, f, text)
}

// openTarget returns the content of the regular file the view observed,
// from its start: through the quick view's descriptor, or opened in the
// full view's directory. O_NONBLOCK keeps a FIFO swapped in after the
// stat from blocking the open.
func (v *view) openTarget() (*target, error) {
	if v.file != nil {
		return &target{Reader: io.NewSectionReader(v.file, 0, math.MaxInt64), f: v.file}, nil
	}
	f, err := v.dir.Open(v.base, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		return nil, err
	}
	return &target{Reader: f, f: f, own: true}, nil
}

// target is the file a view observed, open for reading. Closing it
// records its permission bits as they are once it was read, no bits when
// they cannot be known.
type target struct {
	io.Reader
	f *safepath.File
	// own is set when closing the target closes f.
	own  bool
	perm fs.FileMode
}

func (t *target) Close() error {
	if st, err := t.f.Stat(); err == nil {
		t.perm = fs.FileMode(st.Mode & 0o777)
	}
	if t.own {
		return t.f.Close()
	}
	return nil
}

// look opens the parent directory and observes the path in it. A symlink
// on the way that someone other than root controls is an error; a symlink
// at the path itself is drift, never followed. Temporary files a killed
// run left beside the path are removed first.
func (f *file) look() (*view, error) {
	dir, base, err := f.links.OpenParent(f.path)
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
		return &view{noParent: err, base: base, o: observed{kind: Absent}}, nil
	}
	if err != nil {
		return nil, err
	}
	v := &view{dir: dir, base: base}
	if err := dir.RemoveLeftovers(base); err != nil {
		return nil, errors.Join(err, dir.Close())
	}
	st, err := dir.Stat(base)
	switch {
	case errors.Is(err, unix.ENOENT):
		v.o.kind = Absent
		return v, nil
	case err != nil:
		return nil, errors.Join(err, dir.Close())
	}
	v.o = observedOf(&st)
	return v, nil
}

func kindOf(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return Present
	case unix.S_IFDIR:
		return Directory
	case unix.S_IFLNK:
		return kindSymlink
	}
	return kindSpecial
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

// compare finds the drift of v. Attributes are compared before content
// because they are free once the path is stat'ed.
func (f *file) compare(ctx context.Context, v *view) error {
	o, d := v.o, &v.d
	if o.kind != f.ensure {
		d.kind = true
		d.diffs = append(d.diffs, resources.Differs("ensure", o.kind, f.ensure))
		return nil
	}
	if f.ensure == Absent {
		return nil
	}
	if err := f.compareAttrs(o, d); err != nil {
		return err
	}
	if f.content == nil {
		return nil
	}
	if v.unread {
		// Content drift sends Check to the full view, which reads.
		d.content = true
		return nil
	}
	differs, err := f.contentDiffers(ctx, v)
	if err != nil {
		return err
	}
	d.content = differs
	return nil
}

// contentDiffers compares the content of the file v observed with the
// wanted content, hashing the file only when the sizes agree. Content this
// resource wrote stands for the wanted content while content.written says
// so: the check after a write compares with what was written.
func (f *file) contentDiffers(ctx context.Context, v *view) (bool, error) {
	size := v.o.size
	var have digest
	hashed := false
	hash := func() (digest, error) {
		if !hashed {
			h, err := v.hashTarget(ctx)
			if err != nil {
				return digest{}, err
			}
			have, hashed = h, true
		}
		return have, nil
	}
	if mine, ok := f.content.written(); ok && mine.size == size {
		h, err := hash()
		if err != nil || h == mine {
			return false, err
		}
	}
	if in, ok := f.content.(*inline); ok && !hashed && v.known == nil {
		// Text in memory is compared with the file as it is read: neither
		// is hashed.
		text, _, err := in.resolve(false)
		if err != nil || int64(len(text)) != size {
			return err == nil, err
		}
		same, err := v.holds(ctx, text)
		return !same, err
	}
	want, err := f.content.digest(ctx, f.links)
	if err != nil || want.size != size {
		return err == nil, err
	}
	h, err := hash()
	return h != want, err
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

// inspect looks at the path and compares it with the wanted state. The
// caller closes the view.
func (f *file) inspect(ctx context.Context) (*view, error) {
	return f.compared(ctx, f.look)
}

// compared takes a view with look and compares it.
func (f *file) compared(ctx context.Context, look func() (*view, error)) (*view, error) {
	v, err := look()
	if err != nil {
		return nil, err
	}
	if err := f.compare(ctx, v); err != nil {
		return nil, errors.Join(err, v.close())
	}
	return v, nil
}

// Check reports the kind of path found (present, absent, directory,
// symlink or special) and whether it is the wanted state, with what
// differs: the content first, then owner, group and mode. It changes
// nothing but the leftovers of a killed run.
func (f *file) Check(ctx context.Context) (resources.Status, error) {
	// The quick view settles every case but content drift in a file it
	// did not open for reading, having taken it for the file last
	// written: the full view reads that one.
	v, err := f.compared(ctx, f.peek)
	if err != nil {
		return resources.Status{}, err
	}
	if v.unread && v.d.content {
		if err := v.close(); err != nil {
			return resources.Status{}, err
		}
		if v, err = f.inspect(ctx); err != nil {
			return resources.Status{}, err
		}
	}
	st := resources.Status{Ensure: v.o.kind, Desired: v.d.none(), Differences: v.d.diffs}
	if v.d.content {
		cd, err := f.contentDifference(ctx, v)
		if err != nil {
			return st, errors.Join(err, v.close())
		}
		st.Differences = append([]resources.Difference{cd}, st.Differences...)
	}
	return st, v.close()
}

func describe(kind string) string {
	switch kind {
	case Present:
		return "a regular file"
	case Directory:
		return "a directory"
	case kindSymlink:
		return "a symlink"
	case kindSpecial:
		return "a special file"
	}
	return kind
}
