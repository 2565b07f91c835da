package source

import (
	"crypto/ed25519"
	"log/slog"
	"net/http"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
)

// Options configure a Set.
type Options struct {
	// Cache opens the directory revisions are cached in (a subdirectory
	// of the state directory), one subdirectory per source. It is called
	// when the first remote source is used, so a run without one leaves
	// the state directory alone.
	Cache func() (*state.Dir, error)
	// ReadOnly is for a noop run, which changes nothing: Cache is only
	// read (a source that cannot be reached still starts from its cached
	// copy), and never created or written; what is fetched is kept in a
	// private temporary directory instead, which Set.Close removes. Cache
	// may then fail with fs.ErrNotExist: nothing is cached.
	ReadOnly bool
	// Trust lists the keys bundles must be signed with; empty requires no
	// signature.
	Trust []ed25519.PublicKey
	// AllowUnsigned uses unsigned bundles from NATS (obj://) and kv://
	// values when Trust is empty; without it they are refused, since the
	// NATS server is not authenticated.
	AllowUnsigned bool
	// AllowUnsignedData uses kv:// values (--hiera, kvGet()), which carry
	// no signature, also when Trust is set.
	AllowUnsignedData bool
	// AllowHTTP accepts plain http:// sources, and redirects from https://
	// to http://.
	AllowHTTP bool
	// HTTPInterval is the poll interval of HTTP sources; default 30s.
	HTTPInterval time.Duration
	// Host is this host's name, which decides whether it is in the wave
	// of a staged rollout.
	Host string
	// NATS hands out the process's NATS connection, dialled on first use.
	NATS *natsconn.Lazy
	// ConnectWait bounds how long a first fetch waits for NATS before the
	// cache is used; default 3s.
	ConnectWait time.Duration
	// FetchTimeout bounds one fetch; default 1 minute.
	FetchTimeout time.Duration
	// MaxBytes bounds a fetched object; default 256 MiB.
	MaxBytes int64
	// HTTPClient fetches http(s) sources; default one with a 1 minute
	// timeout.
	HTTPClient *http.Client
	Logger     *slog.Logger
	// OnRefused, when set, is called after a source refused a revision
	// (Set.InForce then says which and why); it must not block.
	OnRefused func()

	// scratch opens a read-only set's temporary directory.
	scratch func() (*state.Dir, error)
}

func (o Options) withDefaults() Options {
	if o.HTTPInterval <= 0 {
		o.HTTPInterval = 30 * time.Second
	}
	if o.ConnectWait <= 0 {
		o.ConnectWait = 3 * time.Second
	}
	if o.FetchTimeout <= 0 {
		o.FetchTimeout = time.Minute
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 256 << 20
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{Timeout: time.Minute}
	}
	if !o.AllowHTTP {
		c := *o.HTTPClient
		c.CheckRedirect = noDowngrade(c.CheckRedirect)
		o.HTTPClient = &c
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}
