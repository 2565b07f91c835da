package archive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"time"

	"github.com/reactive-ccm/ccm/resources/internal/ids"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"golang.org/x/sys/unix"
)

// client is shared by every archive, so downloads from one host reuse
// connections. It has no overall timeout: downloads fail on a stall instead.
var client = &http.Client{CheckRedirect: dropHeadersOffHost}

// dropHeadersOffHost follows up to ten redirects like the default client,
// but never carries the archive's headers (tokens, basic auth) to another
// host: net/http only drops Authorization and Cookie.
func dropHeadersOffHost(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if req.URL.Host != via[0].URL.Host {
		for k := range via[0].Header {
			req.Header.Del(k)
		}
	}
	return nil
}

// download fetches the archive into a stage beside it that only root can
// enter, as a root-owned 0600 file, verifies the checksum, gives it to the
// requested owner and group, and moves it into place. Until then no one
// else can read or write a byte of it. On any failure the stage is removed
// and the archive's path is left as it was.
func (a *archive) download(ctx context.Context) (err error) {
	uid, gid, err := ids.Resolve(a.p.Owner, a.p.Group)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stall := time.AfterFunc(a.stallTimeout, func() {
		cancel(fmt.Errorf("%w: nothing received for %s", ErrStalled, a.stallTimeout))
	})
	defer stall.Stop()

	body, length, err := a.get(ctx, stall)
	if err != nil {
		return err
	}
	defer body.Close()
	dir, base, err := a.links.OpenParent(a.name)
	if errors.Is(err, unix.ENOENT) {
		return fmt.Errorf("directory %s does not exist; create it first, for example with a file resource with ensure: directory", filepath.Dir(a.name))
	}
	if err != nil {
		return err
	}
	defer dir.Close()
	lim, err := a.limits(dir.FdPath())
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrDownload, a.name, err)
	}
	if length > lim.total {
		return a.tooLarge(lim, fmt.Sprintf("the response (Content-Length %d)", length))
	}
	stage, err := dir.MkdirStage()
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, stage.Remove()) }()
	tmp, err := stage.CreateTemp(base)
	if err != nil {
		return err
	}
	if err := a.fill(ctx, tmp, body, lim); err != nil {
		return errors.Join(err, tmp.Abort())
	}
	if err := tmp.Chown(uid, gid); err != nil {
		return errors.Join(fmt.Errorf("setting the owner of %s: %w", a.name, err), tmp.Abort())
	}
	if err := tmp.Commit(); err != nil {
		return err
	}
	return stage.MoveIn()
}

// fill writes the body into the temporary file, synced, and verifies the
// checksum of what it wrote. It stops one byte past lim.total, whatever
// the response's Content-Length said (or when it said nothing), or when
// the filesystem's free space falls under lim.floor.
func (a *archive) fill(ctx context.Context, tmp *safepath.Temp, body io.Reader, lim limits) error {
	sum, n, err := copyAndHash(&roomWriter{w: tmp, l: lim}, io.LimitReader(body, lim.total+1))
	if err == nil && n > lim.total {
		return a.tooLarge(lim, "the response")
	}
	var low *lowSpace
	if errors.As(err, &low) {
		return fmt.Errorf("%w: GET %s: %w; nothing was written to %s", ErrDownload, displayURL(a.url), low, a.name)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if err != nil {
		if cause := context.Cause(ctx); cause != nil {
			err = cause
		}
		return fmt.Errorf("downloading %s: %w", displayURL(a.url), err)
	}
	if a.p.Checksum != "" && sum != a.p.Checksum {
		return fmt.Errorf("%w: %s from %s: expected %q got %q", ErrChecksumMismatch, a.name, displayURL(a.url), a.p.Checksum, sum)
	}
	return nil
}

// tooLarge is the error for a download over lim.total.
func (a *archive) tooLarge(lim limits, what string) error {
	over := &overLimit{what: what, limit: lim.total, unit: "bytes"}
	return fmt.Errorf("%w: GET %s: %w; nothing was written to %s (if the archive is the one you meant, make room on the filesystem of %s)",
		ErrDownload, displayURL(a.url), over, a.name, filepath.Dir(a.name))
}

// get sends the request and returns the body of a 200 response and its
// Content-Length (-1 when unknown). Each read of the body pushes the
// stall timer back.
func (a *archive) get(ctx context.Context, stall *time.Timer) (io.ReadCloser, int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.url.String(), nil)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: building the request for %s", ErrDownload, displayURL(a.url))
	}
	for k, v := range a.p.Headers {
		req.Header.Add(k, v)
	}
	if a.auth {
		req.SetBasicAuth(a.user, a.pass)
	}
	resp, err := client.Do(req)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil {
			err = cause
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its message repeats the URL
		}
		return nil, 0, fmt.Errorf("%w: GET %s: %w", ErrDownload, displayURL(a.url), err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, 0, fmt.Errorf("%w: GET %s: HTTP %s", ErrDownload, displayURL(a.url), resp.Status)
	}
	return progressReader{resp.Body, stall, a.stallTimeout}, resp.ContentLength, nil
}

// copyAndHash writes r to w and returns the SHA-256 of what was written
// and its length.
func copyAndHash(w io.Writer, r io.Reader) (string, int64, error) {
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), r)
	return hex.EncodeToString(h.Sum(nil)), n, err
}

// progressReader resets the stall timer whenever data arrives.
type progressReader struct {
	io.ReadCloser
	stall   *time.Timer
	timeout time.Duration
}

func (p progressReader) Read(b []byte) (int, error) {
	n, err := p.ReadCloser.Read(b)
	if n > 0 {
		p.stall.Reset(p.timeout)
	}
	return n, err
}
