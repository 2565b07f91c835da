package registry

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/resources/registration"
)

// StreamSettings are what `ccm registration init` sets.
type StreamSettings struct {
	// Replicas, 1 to 5.
	Replicas int
	// MaxAge is how long an entry lives when not published again and
	// has no TTL of its own, and how long removal markers stay.
	MaxAge time.Duration
}

// Init creates the registration stream, or updates it, as upstream's
// `ccm registration init` does: every registration subject, one message
// per subject with rollup, per-message TTLs, and markers when entries
// expire.
func (r *Registry) Init(ctx context.Context, s StreamSettings) (*jetstream.StreamInfo, error) {
	if s.Replicas < 1 || s.Replicas > 5 {
		return nil, fmt.Errorf("registry: replicas must be between 1 and 5, not %d", s.Replicas)
	}
	c, err := r.conn(ctx)
	if err != nil {
		return nil, err
	}
	st, err := c.JetStream().CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:                   r.opts.Stream,
		Subjects:               []string{registration.SubjectPrefix + ".>"},
		Retention:              jetstream.LimitsPolicy,
		MaxMsgsPerSubject:      1,
		AllowMsgTTL:            true,
		AllowRollup:            true,
		Replicas:               s.Replicas,
		MaxAge:                 s.MaxAge,
		SubjectDeleteMarkerTTL: s.MaxAge,
		DenyDelete:             true,
	})
	if err != nil {
		return nil, fmt.Errorf("registry: creating or updating stream %s: %w", r.opts.Stream, err)
	}
	return st.CachedInfo(), nil
}

// limits are what the stream's configuration says of entries' lives.
type limits struct {
	// maxAge ends an entry without a TTL; 0 never.
	maxAge time.Duration
	// ttls is set when the stream takes per-message TTLs.
	ttls bool
}

// assumed are the limits upstream's `registration init` sets, used when
// the stream's configuration cannot be read (the credentials may not
// allow it): entries are then published again at least every 30s.
var assumed = limits{maxAge: time.Minute, ttls: true}

// limitsOf returns the stream's limits, read once until forget.
func (r *Registry) limitsOf(ctx context.Context) limits {
	r.limits.mu.Lock()
	defer r.limits.mu.Unlock()
	if r.limits.l != nil {
		return *r.limits.l
	}
	l := assumed
	c, err := r.conn(ctx)
	if err == nil {
		var st jetstream.Stream
		if st, err = c.JetStream().Stream(ctx, r.opts.Stream); err == nil {
			cfg := st.CachedInfo().Config
			l = limits{maxAge: cfg.MaxAge, ttls: cfg.AllowMsgTTL}
		}
	}
	if err != nil {
		if errors.Is(err, jetstream.ErrStreamNotFound) {
			return l
		}
		r.opts.Logger.Debug("reading the registration stream's settings", "stream", r.opts.Stream, "error", err)
	}
	r.limits.l = &l
	return l
}

// forgetLimits makes the next publish read the stream's settings again.
func (r *Registry) forgetLimits() {
	r.limits.mu.Lock()
	r.limits.l = nil
	r.limits.mu.Unlock()
}
