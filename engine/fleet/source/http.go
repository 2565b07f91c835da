package source

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
)

// httpSource is a bundle or data file on a web server, polled with
// conditional requests.
type httpSource struct {
	loc      Location
	client   *http.Client
	interval time.Duration
	max      int64
	// signed fetches URL.sig beside the bundle.
	signed bool
}

// Revision IDs of HTTP sources carry their validator, so a conditional
// request can be made from the ID alone.
const (
	etagPrefix    = "etag:"
	modTimePrefix = "last-modified:"
	hashPrefix    = "sha256:"
)

func (h *httpSource) get(ctx context.Context, prev string) (blob, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.loc.URL.String(), nil)
	if err != nil {
		return blob{}, err
	}
	if v, ok := strings.CutPrefix(prev, etagPrefix); ok {
		req.Header.Set("If-None-Match", v)
	}
	if v, ok := strings.CutPrefix(prev, modTimePrefix); ok {
		req.Header.Set("If-Modified-Since", v)
	}
	data, resp, err := h.fetch(req)
	if err != nil {
		return blob{}, err
	}
	b := blob{data: data, id: validator(resp, data)}
	if b.id == prev {
		return blob{}, errUnchanged
	}
	if h.signed {
		if b.sig, err = h.signature(ctx); err != nil {
			return blob{}, err
		}
	}
	return b, nil
}

// validator is the revision ID of a response: its ETag, else its
// Last-Modified, else a hash of the body.
func validator(resp *http.Response, data []byte) string {
	if v := resp.Header.Get("ETag"); v != "" {
		return etagPrefix + v
	}
	if v := resp.Header.Get("Last-Modified"); v != "" {
		return modTimePrefix + v
	}
	sum := sha256.Sum256(data)
	return hashPrefix + hex.EncodeToString(sum[:])
}

// fetch runs req and reads a bounded body; a 304 is errUnchanged and a
// 404 or 410 ErrGone.
func (h *httpSource) fetch(req *http.Request) ([]byte, *http.Response, error) {
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotModified:
		return nil, nil, errUnchanged
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		return nil, nil, fmt.Errorf("%w: %s answered %s", ErrGone, req.URL.Redacted(), resp.Status)
	case resp.StatusCode/100 != 2:
		return nil, nil, fmt.Errorf("%s answered %s", req.URL.Redacted(), resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, h.max+1))
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", req.URL.Redacted(), err)
	}
	if int64(len(data)) > h.max {
		return nil, nil, fmt.Errorf("%s is more than the %d bytes allowed", req.URL.Redacted(), h.max)
	}
	return data, resp, nil
}

// signature fetches the detached signature URL.sig; none is an empty one.
func (h *httpSource) signature(ctx context.Context) ([]byte, error) {
	u := *h.loc.URL
	u.Path += bundle.SignatureSuffix
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	sig, _, err := h.fetch(req)
	if errors.Is(err, ErrGone) {
		return nil, nil
	}
	return sig, err
}

// noDowngrade refuses a redirect to anything but https://, then asks next
// (http's default policy when nil).
func noDowngrade(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != string(HTTPS) {
			return fmt.Errorf("%w: %s redirects to %s, which is not https (allow with --allow-http)", ErrUntrusted, via[0].URL.Redacted(), req.URL.Redacted())
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
}

// watch polls: every interval, with jitter, it asks the Source to look,
// which makes a conditional request.
func (h *httpSource) watch(ctx context.Context, changed func()) error {
	changed()
	t := time.NewTimer(jitter(h.interval))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			changed()
			t.Reset(jitter(h.interval))
		}
	}
}
