package archive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/reactive-ccm/ccm/resources/internal/ids"
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

// observe reads the archive's state. It changes nothing.
func (a *archive) observe(ctx context.Context) (observed, error) {
	var o observed
	fi, err := os.Stat(a.name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return o, err
	case !fi.Mode().IsRegular():
		return o, fmt.Errorf("%s is a %s, not an archive file; remove it", a.name, kindOf(fi))
	default:
		o.exists = true
		st := fi.Sys().(*syscall.Stat_t)
		o.uid, o.gid = int(st.Uid), int(st.Gid)
		if a.p.Checksum != "" {
			if o.sum, err = sha256File(ctx, a.name); err != nil {
				return o, err
			}
		}
	}
	if a.p.Creates != "" {
		_, err := os.Lstat(a.p.Creates)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return o, err
		}
		o.createsExists = err == nil
	}
	return o, nil
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

// sha256File hashes a file, stopping early when ctx is cancelled.
func sha256File(ctx context.Context, path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, ctxReader{ctx, f}); err != nil {
		return "", fmt.Errorf("hashing %s: %w", path, err)
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

func kindOf(fi fs.FileInfo) string {
	if fi.IsDir() {
		return "directory"
	}
	return "special file"
}
