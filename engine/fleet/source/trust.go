package source

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
)

// What root runs is decided by who wrote it. A NATS server does not prove
// who it is to ccm (any local user can listen on nats://127.0.0.1:4222
// while no server runs), so what comes from NATS is used only when signed
// or when the operator said it may be used unsigned; an https server is
// authenticated by TLS, so its bundles need a signature only under
// --trust, as upstream's do.

// admit decides, before anything is fetched, whether the source at loc
// may be used at all.
func (o *Options) admit(loc Location, data bool) error {
	switch {
	case loc.Scheme == KV && !o.AllowUnsigned && !o.AllowUnsignedData && len(o.Trust) > 0:
		return fmt.Errorf("%w: %s: kv:// values carry no signature and --trust requires signed input; pass --allow-unsigned-data to use them all the same", ErrUntrusted, loc)
	case loc.Scheme == KV && !o.AllowUnsigned && !o.AllowUnsignedData:
		return fmt.Errorf("%w: %s: kv:// values carry no signature and the NATS server is not authenticated (any local user can serve nats://127.0.0.1:4222 while no server runs); pass --allow-unsigned-data to use them", ErrUntrusted, loc)
	case loc.Scheme == Object && !data && len(o.Trust) == 0 && !o.AllowUnsigned:
		return fmt.Errorf("%w: %s: a bundle from NATS runs as root only when signed, since the NATS server is not authenticated (any local user can serve nats://127.0.0.1:4222 while no server runs); sign bundles (ccm bundle sign) and pass --trust KEYFILE, or pass --allow-unsigned", ErrUntrusted, loc)
	}
	return nil
}

// signed reports whether revisions of the source must carry a signature
// by a trusted key: under --trust, everything but kv:// values.
func (o *Options) signed(loc Location) bool {
	return len(o.Trust) > 0 && loc.Scheme != KV
}

// verify checks a fetched blob against the trusted keys when the source
// must be signed, and refuses a signature older than the newest this host
// accepted from the source: hosts never go back unless the operator rolls
// back, which signs the older bundle again.
func (s *Source) verify(b blob) (bundle.Attestation, error) {
	if !s.opts.signed(s.loc) {
		return bundle.Attestation{}, nil
	}
	a, err := bundle.Verify(b.data, b.sig, s.opts.Trust)
	if err != nil {
		return a, err
	}
	n, err := s.cache.newest()
	if err != nil {
		return a, fmt.Errorf("%w: reading the newest signature accepted: %w", ErrUntrusted, err)
	}
	if a.Signed.Before(n.Signed) || (a.Signed.Equal(n.Signed) && a.Digest != n.Digest) {
		return a, fmt.Errorf("%w: signed %s, not after the newest revision this host accepted (signed %s); hosts never go back: to return to an older bundle, run ccm bundle rollback, which signs it again",
			ErrDowngrade, a.Signed.Format(time.RFC3339Nano), n.Signed.Format(time.RFC3339Nano))
	}
	return a, nil
}

// usable refuses a cached revision a run that requires signatures may not
// use: one not verified against a key it trusts, as a run without --trust
// or with other keys caches it.
func (s *Source) usable(rev Revision) error {
	if !s.opts.signed(s.loc) || trustedKey(s.opts.Trust, rev.VerifiedBy) {
		return nil
	}
	why := "was not verified (a run without --trust fetched it)"
	if rev.VerifiedBy != "" {
		why = "was verified with key " + shortKey(rev.VerifiedBy) + ", which is not trusted now"
	}
	return fmt.Errorf("%w: the cached copy of %s %s; refusing it", ErrUntrusted, shortRev(rev.ID), why)
}

func trustedKey(keys []ed25519.PublicKey, h string) bool {
	for _, k := range keys {
		if h != "" && hex.EncodeToString(k) == h {
			return true
		}
	}
	return false
}

func shortKey(h string) string { return h[:min(len(h), 12)] }

func shortRev(id string) string { return "revision " + id }

// refusal identifies a refused blob by its revision and its signature, so
// the same bytes published again with a corrected signature are looked at
// again at once.
func refusal(b blob) string {
	sum := sha256.Sum256(b.sig)
	return b.id + "\x00" + hex.EncodeToString(sum[:8])
}

// newestRecord is the newest signature a source's cache accepted; it
// lives apart from the revision in force, which a run without --trust
// may replace, so the mark never goes down.
type newestRecord struct {
	Signed time.Time `json:"signed"`
	Digest string    `json:"sha256"`
	Key    string    `json:"key"`
}

const newestFile = "newest-signed.json"

// newest returns the newest signature accepted, zero when none was.
func (c cache) newest() (newestRecord, error) {
	var n newestRecord
	for _, d := range []*state.Dir{c.d, c.from} {
		if d == nil {
			continue
		}
		var r newestRecord
		found, err := d.ReadJSON(newestFile, &r)
		if err != nil {
			return n, err
		}
		if found && r.Signed.After(n.Signed) {
			n = r
		}
	}
	return n, nil
}

// raise records a as the newest signature accepted when it is newer.
func (c cache) raise(a bundle.Attestation) error {
	n, err := c.newest()
	if err != nil || !a.Signed.After(n.Signed) {
		return err
	}
	return c.d.WriteJSON(newestFile, newestRecord{Signed: a.Signed, Digest: a.Digest, Key: a.Key})
}
