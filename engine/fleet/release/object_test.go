package release_test

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
)

const key = "site.tgz"

// object is the bundle "site.tgz" of a fresh store on a real server.
func object(t *testing.T) release.Object {
	t.Helper()
	_, obs := store(t)
	return release.Object{Store: obs, Key: key, Name: "obj://ccm/" + key}
}

// signer signs with a fresh key at a time after every earlier signature.
func signer(t *testing.T) (release.Signer, ed25519.PrivateKey) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	next := time.Now()
	return func(data []byte) ([]byte, error) {
		next = next.Add(time.Second)
		return bundle.Sign(data, priv, next), nil
	}, priv
}

// publish publishes data, signed by sign when it is set.
func publish(t *testing.T, o release.Object, data string, sign release.Signer) release.Bundle {
	t.Helper()
	b := release.Bundle{Data: []byte(data), PushedBy: "tester@test"}
	if sign != nil {
		b.Signature, _ = sign(b.Data)
	}
	if _, err := release.Publish(t.Context(), o.Store, o.Key, b, 0); err != nil {
		t.Fatal(err)
	}
	return b
}

// holds returns what o holds now, and its signature.
func holds(t *testing.T, o release.Object) (string, string) {
	t.Helper()
	data, info, err := release.Fetch(t.Context(), o.Store, o.Key, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	return string(data), info.Metadata[release.SignatureMeta]
}

func TestRollback(t *testing.T) {
	t.Run("without a revision goes back to the newest one that differs", func(t *testing.T) {
		o := object(t)
		publish(t, o, "one", nil)
		publish(t, o, "two", nil)
		publish(t, o, "two", nil)
		got, err := o.Rollback(t.Context(), "", nil)
		if err != nil || got.Entry.Seq != 1 {
			t.Fatalf("rolled back to %+v, %v; want revision 1", got.Entry, err)
		}
		if data, _ := holds(t, o); data != "one" || got.Info == nil || got.Info.Digest != got.Entry.Digest {
			t.Fatalf("the object holds %q (%+v) after the rollback", data, got.Info)
		}
	})
	t.Run("by number or digest prefix", func(t *testing.T) {
		o := object(t)
		publish(t, o, "one", nil)
		publish(t, o, "two", nil)
		publish(t, o, "three", nil)
		all, err := release.History(t.Context(), o.Store, key)
		if err != nil || len(all) != 3 {
			t.Fatalf("history: %+v, %v", all, err)
		}
		if got, err := o.Rollback(t.Context(), "2", nil); err != nil || got.Entry.Seq != 2 {
			t.Fatalf("rollback to 2: %+v, %v", got.Entry, err)
		}
		prefix := all[0].Digest[len("SHA-256="):][:8]
		if got, err := o.Rollback(t.Context(), prefix, nil); err != nil || got.Entry.Seq != 1 {
			t.Fatalf("rollback to %s: %+v, %v", prefix, got.Entry, err)
		}
	})
	t.Run("to a revision the history lacks is refused", func(t *testing.T) {
		o := object(t)
		publish(t, o, "one", nil)
		for _, want := range []string{"", "7", "abc"} {
			if _, err := o.Rollback(t.Context(), want, nil); !errors.Is(err, release.ErrRefused) {
				t.Fatalf("rollback to %q: %v, want a refusal", want, err)
			}
		}
	})
	t.Run("of a signed revision needs a key and signs it again", func(t *testing.T) {
		o := object(t)
		sign, priv := signer(t)
		old := publish(t, o, "one", sign)
		publish(t, o, "two", sign)
		if _, err := o.Rollback(t.Context(), "1", nil); !errors.Is(err, release.ErrRefused) {
			t.Fatalf("rollback of a signed revision without a key: %v", err)
		}
		got, err := o.Rollback(t.Context(), "1", sign)
		if err != nil {
			t.Fatal(err)
		}
		data, sig := holds(t, o)
		a, verr := bundle.Verify([]byte(data), []byte(sig), []ed25519.PublicKey{priv.Public().(ed25519.PublicKey)})
		if data != "one" || verr != nil || bytes.Equal([]byte(sig), bytes.TrimSpace(old.Signature)) || !bytes.Equal(bytes.TrimSpace(got.Bundle.Signature), []byte(sig)) {
			t.Fatalf("after the rollback the object holds %q signed %+v (%v)", data, a, verr)
		}
	})
}

func TestNotOlder(t *testing.T) {
	sign, _ := signer(t)
	o := object(t)
	if err := o.NotOlder(t.Context(), release.Bundle{Data: []byte("x")}); err != nil {
		t.Fatalf("a first push: %v", err)
	}
	older := release.Bundle{Data: []byte("older")}
	older.Signature, _ = sign(older.Data)
	publish(t, o, "current", sign)
	newer := release.Bundle{Data: []byte("newer")}
	newer.Signature, _ = sign(newer.Data)
	for _, c := range []struct {
		name string
		b    release.Bundle
		ok   bool
	}{
		{"newer signature", newer, true},
		{"older signature", older, false},
		{"unsigned over signed", release.Bundle{Data: []byte("plain")}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := o.NotOlder(t.Context(), c.b)
			if c.ok != (err == nil) || (err != nil && !errors.Is(err, release.ErrRefused)) {
				t.Fatalf("got %v", err)
			}
		})
	}
}

// stage starts a rollout of "next" to percent of the hosts over "current".
func stage(t *testing.T, o release.Object, percent float64, sign release.Signer) *release.Rollout {
	t.Helper()
	publish(t, o, "current", sign)
	b := release.Bundle{Data: []byte("next")}
	if sign != nil {
		b.Signature, _ = sign(b.Data)
	}
	r, err := release.Stage(t.Context(), o.Store, o.Key, b, 0, percent)
	if err != nil {
		t.Fatal(err)
	}
	return &r
}

func TestWiden(t *testing.T) {
	o := object(t)
	r := stage(t, o, 20, nil)
	if err := o.Widen(t.Context(), r, 10); !errors.Is(err, release.ErrRefused) {
		t.Fatalf("narrowing: %v", err)
	}
	if err := o.Widen(t.Context(), r, 50); err != nil {
		t.Fatal(err)
	}
	if got, err := o.OpenRollout(t.Context()); err != nil || got.Percent != 50 {
		t.Fatalf("after widening to 50%%: %+v, %v", got, err)
	}
	if err := o.Widen(t.Context(), r, 100); err != nil {
		t.Fatal(err)
	}
	if data, _ := holds(t, o); data != "next" {
		t.Fatalf("promoted to all, the object holds %q", data)
	}
	if _, err := o.OpenRollout(t.Context()); err == nil {
		t.Fatal("a rollout promoted to all is still under way")
	}
}

func TestAbort(t *testing.T) {
	t.Run("unsigned ends the rollout and changes nothing else", func(t *testing.T) {
		o := object(t)
		stage(t, o, 20, nil)
		if err := o.Abort(t.Context(), nil); err != nil {
			t.Fatal(err)
		}
		if r, err := release.ReadRollout(t.Context(), o.Store, key); r != nil || err != nil {
			t.Fatalf("rollout after abort: %+v, %v", r, err)
		}
		if data, _ := holds(t, o); data != "current" {
			t.Fatalf("after abort the object holds %q", data)
		}
	})
	t.Run("signed needs a key and signs the current bundle again", func(t *testing.T) {
		o := object(t)
		sign, _ := signer(t)
		stage(t, o, 20, sign)
		_, before := holds(t, o)
		if err := o.Abort(t.Context(), nil); !errors.Is(err, release.ErrRefused) {
			t.Fatalf("abort of a signed rollout without a key: %v", err)
		}
		if err := o.Abort(t.Context(), sign); err != nil {
			t.Fatal(err)
		}
		data, after := holds(t, o)
		if data != "current" || after == before || after == "" {
			t.Fatalf("after abort the object holds %q, signature changed %t", data, after != before)
		}
		if r, _ := release.ReadRollout(t.Context(), o.Store, key); r != nil {
			t.Fatalf("rollout after abort: %+v", r)
		}
	})
}

func TestParseShare(t *testing.T) {
	for in, want := range map[string]float64{"10%": 10, "12.5": 12.5, "all": 100, "100%": 100, "0.5%": 0.5} {
		if got, err := release.ParseShare(in); err != nil || got != want {
			t.Errorf("ParseShare(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "0%", "-5%", "101%", "half", "10%%", "NaN", "nan%", "+Inf", "1e-400"} {
		if got, err := release.ParseShare(in); !errors.Is(err, release.ErrRefused) {
			t.Errorf("ParseShare(%q) = %v, %v; want a refusal", in, got, err)
		}
	}
	for _, p := range []float64{10, 12.5, 100} {
		if got, err := release.ParseShare(release.Share(p)); err != nil || got != p {
			t.Errorf("ParseShare(Share(%v)) = %v, %v", p, got, err)
		}
	}
}

func TestShortDigest(t *testing.T) {
	for in, want := range map[string]string{"SHA-256=0123456789abcdef": "0123456789ab", "abc": "abc", "": ""} {
		if got := release.ShortDigest(in); got != want {
			t.Errorf("ShortDigest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestShare(t *testing.T) {
	for p, want := range map[float64]string{10: "10%", 12.5: "12.5%", 100: "all", 150: "all"} {
		if got := release.Share(p); got != want {
			t.Errorf("Share(%v) = %q, want %q", p, got, want)
		}
	}
}
