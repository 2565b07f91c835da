package archive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

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
// and group. It returns why the state is not desired, or "".
func (a *archive) verdict(o observed) string {
	if a.p.Ensure == ensureAbsent {
		if o.exists {
			return "the archive " + a.name + " exists"
		}
		return ""
	}
	switch {
	case a.p.Creates != "" && !o.createsExists:
		return "creates " + a.p.Creates + " does not exist"
	case !a.p.Cleanup && !o.exists:
		return "the archive " + a.name + " does not exist"
	case a.p.Cleanup && o.exists:
		return "the archive " + a.name + " still exists and cleanup is set"
	case !o.exists:
		return ""
	}
	reason, _ := a.mismatch(o)
	return reason
}

// mismatch compares an existing archive's owner, group and checksum. It
// returns why they differ, and whether only the ownership does.
func (a *archive) mismatch(o observed) (reason string, ownerOnly bool) {
	if a.p.Checksum != "" && o.sum != a.p.Checksum {
		return fmt.Sprintf("the archive's checksum is %s, expected %s", o.sum, a.p.Checksum), false
	}
	uid, err := ids.UID(a.p.Owner)
	if err != nil {
		return "owner: " + err.Error(), true
	}
	if uid != o.uid {
		return fmt.Sprintf("the archive is owned by %s, not %s", ids.UserName(o.uid), a.p.Owner), true
	}
	gid, err := ids.GID(a.p.Group)
	if err != nil {
		return "group: " + err.Error(), true
	}
	if gid != o.gid {
		return fmt.Sprintf("the archive's group is %s, not %s", ids.GroupName(o.gid), a.p.Group), true
	}
	return "", false
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

func kindOf(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return "directory"
	case unix.S_IFLNK:
		return "symlink"
	}
	return "special file"
}
