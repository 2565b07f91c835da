package control

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"syscall"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

// Client talks to a daemon's control socket.
type Client struct {
	path string
	http *http.Client
}

// Path returns the socket to use: flag when set, else $CCM_SOCKET, else
// DefaultPath.
func Path(flag string) string {
	if flag != "" {
		return flag
	}
	if p := os.Getenv(PathEnv); p != "" {
		return p
	}
	return DefaultPath
}

// NewClient returns a client of the socket at path; nothing is dialled
// until a request. It talks only to a daemon run by root or by the
// client's own user, as the kernel tells (SO_PEERCRED): any other is
// ErrNotTrusted, whatever it would answer.
func NewClient(path string) *Client {
	tr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		c, err := d.DialContext(ctx, "unix", path)
		if err != nil {
			return nil, err
		}
		if p := peerOf(c); !p.trusted() {
			c.Close()
			return nil, &untrustedPeer{path: path, uid: p.uid, ok: p.ok}
		}
		return c, nil
	}}
	return &Client{path: path, http: &http.Client{Transport: tr}}
}

// Status returns the daemon's report.
func (c *Client) Status(ctx context.Context) (status.Report, error) {
	var r status.Report
	return r, c.do(ctx, http.MethodGet, "/v1/status", nil, &r)
}

// Pause pauses resources and returns the pause recorded.
func (c *Client) Pause(ctx context.Context, req PauseRequest) (status.Pause, error) {
	var r Reply
	if err := c.do(ctx, http.MethodPost, "/v1/pause", req, &r); err != nil {
		return status.Pause{}, err
	}
	if r.Pause == nil {
		return status.Pause{}, fmt.Errorf("%w: the daemon recorded no pause", ErrRequest)
	}
	return *r.Pause, nil
}

// Resume ends pauses.
func (c *Client) Resume(ctx context.Context, req ResumeRequest) error {
	return c.do(ctx, http.MethodPost, "/v1/resume", req, &Reply{})
}

// Recheck checks one resource now, or every resource.
func (c *Client) Recheck(ctx context.Context, req RecheckRequest) error {
	return c.do(ctx, http.MethodPost, "/v1/recheck", req, &Reply{})
}

// Events calls fn with each recent event, oldest first, and with follow
// each live event until ctx ends or fn returns an error.
func (c *Client) Events(ctx context.Context, follow bool, fn func(*engine.Event) error) error {
	url := "/v1/events"
	if follow {
		url += "?follow=1"
	}
	resp, err := c.send(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var probe Reply
		if json.Unmarshal(sc.Bytes(), &probe) == nil && probe.Error != "" {
			return ErrFellBehind
		}
		var ev engine.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			return fmt.Errorf("%w: reading events: %w", ErrRequest, err)
		}
		if err := fn(&ev); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%w: the event stream ended (%w); the daemon stopped or restarted", ErrNoDaemon, err)
	}
	return nil
}

func (c *Client) do(ctx context.Context, method, url string, body, out any) error {
	resp, err := c.send(ctx, method, url, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("%w: reading the daemon's answer: %w", ErrRequest, err)
	}
	return nil
}

// send makes a request and turns the daemon's refusals into errors.
func (c *Client) send(ctx context.Context, method, url string, body any) (*http.Response, error) {
	var buf bytes.Buffer
	if body != nil {
		if err := json.NewEncoder(&buf).Encode(body); err != nil {
			return nil, err
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://ccm"+url, &buf)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, c.dialError(err)
	}
	if resp.StatusCode == http.StatusOK {
		return resp, nil
	}
	defer resp.Body.Close()
	var r Reply
	_ = json.NewDecoder(resp.Body).Decode(&r)
	if resp.StatusCode == http.StatusForbidden {
		return nil, fmt.Errorf("%w: %s (%s)", ErrDenied, r.Error, c.path)
	}
	return nil, fmt.Errorf("%w: %s", ErrRequest, r.Error)
}

// dialError says what to do when the socket cannot be reached.
func (c *Client) dialError(err error) error {
	var up *untrustedPeer
	switch {
	case errors.As(err, &up):
		return up
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("%w at %s: is `ccm run --watch` running? (--socket or $%s name another socket)", ErrNoDaemon, c.path, PathEnv)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%w: %s is root-only; run as root", ErrDenied, c.path)
	}
	return fmt.Errorf("%w at %s: %w", ErrNoDaemon, c.path, err)
}
