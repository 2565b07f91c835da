package release

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
)

// Object is one bundle as an operator changes it: the store holding it,
// its key there, and its name in messages (obj://BUCKET/KEY).
type Object struct {
	Store jetstream.ObjectStore
	Key   string
	Name  string
}

// Signer signs a bundle's bytes anew: the revision Rollback puts back, or
// the signed bundle Abort sends a wave back to. With a nil Signer nothing
// is signed, and a signed revision that must be signed anew is refused.
type Signer func(data []byte) ([]byte, error)

// NotOlder refuses b when hosts that check signatures would refuse it over
// what o holds now: b's signature is older, or b is unsigned over a
// signed bundle.
func (o Object) NotOlder(ctx context.Context, b Bundle) error {
	cur, err := o.Store.GetInfo(ctx, o.Key)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	was, err := bundle.Inspect([]byte(cur.Metadata[SignatureMeta]))
	if err != nil {
		return nil
	}
	now, err := bundle.Inspect(b.Signature)
	switch {
	case err != nil:
		return refuse("%s holds a signed bundle and this one is not signed; hosts that check signatures would refuse it (ccm bundle sign)", o.Name)
	case now.Signed.Before(was.Signed):
		return refuse("%s holds a bundle signed %s, after this one (signed %s); hosts never go back: use ccm bundle rollback, which signs an older revision again",
			o.Name, was.Signed.Format(time.RFC3339), now.Signed.Format(time.RFC3339))
	}
	return nil
}

// Rolled is what Rollback made current again.
type Rolled struct {
	Entry  Entry
	Bundle Bundle
	Info   *jetstream.ObjectInfo
}

// Rollback makes an older revision of o current again for every host:
// want is a number from the history, a digest prefix (six characters at
// least), or "" for the newest revision older than the current one that
// differs from it. A signed revision is signed again with sign, since
// hosts never go back to an older signature.
func (o Object) Rollback(ctx context.Context, want string, sign Signer) (Rolled, error) {
	all, err := History(ctx, o.Store, o.Key)
	if err != nil {
		return Rolled{}, err
	}
	e, ok := pick(all, want)
	if !ok {
		return Rolled{}, refuse("%s: no revision %q in the history (ccm bundle history lists them)", o.Key, want)
	}
	b := Bundle{Signature: []byte(e.Signature), PushedBy: Pusher() + " (rollback to " + strconv.Itoa(e.Seq) + ")"}
	if b.Data, err = Read(ctx, o.Store, e); err != nil {
		return Rolled{Entry: e}, err
	}
	switch {
	case sign != nil:
		if b.Signature, err = sign(b.Data); err != nil {
			return Rolled{Entry: e}, err
		}
	case e.Signature != "":
		return Rolled{Entry: e}, refuse("revision %d is signed, and hosts never go back to an older signature: pass --key KEYFILE to sign it again", e.Seq)
	}
	info, err := Publish(ctx, o.Store, o.Key, b, 0)
	return Rolled{Entry: e, Bundle: b, Info: info}, err
}

// pick finds want in all (see Rollback).
func pick(all []Entry, want string) (Entry, bool) {
	cur := -1
	for i, e := range all {
		if e.Current {
			cur = i
		}
	}
	for i := len(all) - 1; i >= 0; i-- {
		e := all[i]
		switch {
		case want == "" && i < cur && e.Digest != all[cur].Digest:
			return e, true
		case want != "" && (strconv.Itoa(e.Seq) == want || (len(want) >= 6 && strings.HasPrefix(strings.TrimPrefix(e.Digest, "SHA-256="), want))):
			return e, true
		}
	}
	return Entry{}, false
}

// OpenRollout returns o's rollout under way; no rollout is an error.
func (o Object) OpenRollout(ctx context.Context) (*Rollout, error) {
	r, err := ReadRollout(ctx, o.Store, o.Key)
	if err == nil && r == nil {
		err = errors.New(o.Name + ": no rollout under way")
	}
	return r, err
}

// Widen sets the rollout's share to percent, promoting its revision to
// every host at 100. A narrower share is refused: abort sends hosts back.
func (o Object) Widen(ctx context.Context, r *Rollout, percent float64) error {
	if percent >= 100 {
		return Promote(ctx, o.Store, o.Key, *r)
	}
	if percent < r.Percent {
		return refuse("%s goes to %s of the hosts already; rollout abort sends them back", o.Name, Share(r.Percent))
	}
	r.Percent = percent
	return WriteRollout(ctx, o.Store, o.Key, *r)
}

// Share says a share of the hosts: "all", or a percentage ("12.5%").
func Share(percent float64) string {
	if percent >= 100 {
		return "all"
	}
	return strconv.FormatFloat(percent, 'f', -1, 64) + "%"
}

// ShortDigest is enough of an object digest to tell revisions apart.
func ShortDigest(d string) string {
	d = strings.TrimPrefix(d, "SHA-256=")
	return d[:min(len(d), 12)]
}

// ParseShare reads a share of the hosts as Share writes it, or as a bare
// number ("10%", "12.5", "all"): above 0 and at most 100.
func ParseShare(s string) (float64, error) {
	if s == "all" {
		return 100, nil
	}
	p, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	// Written so that NaN, which every comparison refuses, is refused.
	if err != nil || !(p > 0 && p <= 100) {
		return 0, refuse("%q: want a share of the hosts, 1%% to 100%%, or all", s)
	}
	return p, nil
}

// Abort ends o's rollout: the hosts of its wave go back to the bundle o
// holds. A signed one is published again, signed anew with sign, since
// those hosts accepted a newer signature and never go back to an older
// one.
func (o Object) Abort(ctx context.Context, sign Signer) error {
	info, err := o.Store.GetInfo(ctx, o.Key)
	if err != nil {
		return err
	}
	if info.Metadata[SignatureMeta] == "" {
		return End(ctx, o.Store, o.Key)
	}
	if sign == nil {
		return refuse("%s is signed, and the hosts of the wave accepted a newer signature: pass --key KEYFILE to sign it again so they go back", o.Name)
	}
	data, _, err := Fetch(ctx, o.Store, o.Key, int64(info.Size))
	if err != nil {
		return err
	}
	b := Bundle{Data: data, PushedBy: Pusher() + " (rollout aborted)"}
	if b.Signature, err = sign(data); err != nil {
		return err
	}
	_, err = Publish(ctx, o.Store, o.Key, b, 0)
	return err
}
