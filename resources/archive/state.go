package archive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/ids"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"golang.org/x/sys/unix"
)

// observed is what a check found on the host.
type observed struct {
	exists bool
	// uid and gid own the archive when it exists.
	uid, gid int
	// sum is the archive's SHA-256, computed only when a checksum is set.
	sum           string
	createsExists bool
}

// observe reads the archive's state, through a safe walk to its
// directory, after removing the temporary files a killed download left.
// It changes nothing else.
func (a *archive) observe(ctx context.Context) (observed, error) {
	var o observed
	if err := a.observeArchive(ctx, &o); err != nil {
		return o, err
	}
	if a.p.Creates != "" {
		var err error
		if o.createsExists, err = a.links.Exists(a.p.Creates); err != nil {
			return o, fmt.Errorf("creates: %w", err)
		}
	}
	return o, nil
}

func (a *archive) observeArchive(ctx context.Context, o *observed) error {
	dir, base, err := a.links.OpenParent(a.name)
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
		return nil
	}
	if err != nil {
		return err
	}
	defer dir.Close()
	if err := dir.RemoveLeftovers(base); err != nil {
		return err
	}
	st, err := dir.Stat(base)
	switch {
	case errors.Is(err, unix.ENOENT):
		return nil
	case err != nil:
		return err
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		return fmt.Errorf("%s is a %s, not an archive file; remove it", a.name, kindOf(st.Mode))
	}
	o.exists = true
	o.uid, o.gid = int(st.Uid), int(st.Gid)
	if a.p.Checksum == "" {
		return nil
	}
	f, err := dir.Open(base, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		return err
	}
	defer f.Close()
	o.sum, err = sha256Of(ctx, f)
	return err
}

// verdict applies the seed's state checks: ensure absent, the creates
// marker, the archive's existence against cleanup, then checksum, owner
// and group. It returns what differs, or nothing.
func (a *archive) verdict(o observed) []resources.Difference {
	if a.p.Ensure == ensureAbsent {
		if o.exists {
			return []resources.Difference{resources.Differs("ensure", ensurePresent, ensureAbsent)}
		}
		return nil
	}
	switch {
	case a.p.Creates != "" && !o.createsExists:
		return []resources.Difference{{Property: "creates", Observed: "absent", Desired: "present", Note: a.p.Creates}}
	case !a.p.Cleanup && !o.exists:
		return []resources.Difference{resources.Differs("ensure", ensureAbsent, ensurePresent)}
	case a.p.Cleanup && o.exists:
		return []resources.Difference{{Property: "ensure", Observed: ensurePresent, Desired: ensureAbsent, Note: "cleanup is set"}}
	case !o.exists:
		return nil
	}
	if d, _ := a.mismatch(o); d != nil {
		return []resources.Difference{*d}
	}
	return nil
}

// mismatch compares an existing archive's checksum, owner and group. It
// returns the first that differs, and whether only the ownership does.
func (a *archive) mismatch(o observed) (_ *resources.Difference, ownerOnly bool) {
	if a.p.Checksum != "" && o.sum != a.p.Checksum {
		return &resources.Difference{Property: "checksum", Observed: shortSum(o.sum), Desired: shortSum(a.p.Checksum)}, false
	}
	if uid, err := ids.UID(a.p.Owner); err != nil || uid != o.uid {
		return &resources.Difference{Property: "owner", Observed: ids.UserName(o.uid), Desired: a.p.Owner, Note: errNote(err)}, true
	}
	if gid, err := ids.GID(a.p.Group); err != nil || gid != o.gid {
		return &resources.Difference{Property: "group", Observed: ids.GroupName(o.gid), Desired: a.p.Group, Note: errNote(err)}, true
	}
	return nil, false
}

// shortSum shows the start of a SHA-256 in hex, as reports do.
func shortSum(hex string) string {
	return "sha256:" + hex[:min(8, len(hex))]
}

func errNote(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// sha256Of hashes what f holds from its offset on, stopping early when
// ctx is cancelled.
func sha256Of(ctx context.Context, f *safepath.File) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, ctxReader{ctx, f}); err != nil {
		return "", fmt.Errorf("hashing %s: %w", f.Name(), err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ctxReader fails reads once ctx is done, so hashing a large file can be
// cancelled.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// kindOf names the kind of file mode is, for messages.
func kindOf(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return "directory"
	case unix.S_IFLNK:
		return "symlink"
	case unix.S_IFCHR:
		return "character device"
	case unix.S_IFBLK:
		return "block device"
	case unix.S_IFIFO:
		return "FIFO"
	case unix.S_IFSOCK:
		return "socket"
	}
	return "special file"
}
