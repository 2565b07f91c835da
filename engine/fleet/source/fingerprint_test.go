package source_test

import (
	"errors"
	"testing"

	"github.com/reactive-ccm/ccm/engine/fleet/source"
)

// TestFingerprintFollowsOnlyKV: templates that may call kvGet() are keyed
// by the kv:// revisions alone, so a new bundle leaves them be; Sum
// follows every source.
func TestFingerprintFollowsOnlyKV(t *testing.T) {
	e := newEnv(t)
	const bundleLoc, kvLoc = "obj://bundles/site.tgz", "kv://data/common"
	e.push(bundleLoc, bundleOf(t, "one\n"), nil)
	e.putKV(kvLoc, "a: 1\n")
	load := func() *source.Set {
		set := e.set()
		if _, err := set.Manifest(bundleLoc); err != nil {
			t.Fatal(err)
		}
		if _, _, err := set.Data(kvLoc); err != nil {
			t.Fatal(err)
		}
		return set
	}
	first := load()
	e.push(bundleLoc, bundleOf(t, "two\n"), nil)
	second := load()
	if first.Fingerprint() != second.Fingerprint() || string(first.Sum()) == string(second.Sum()) {
		t.Fatal("a new bundle changed the kv fingerprint, or left the sum")
	}
	e.putKV(kvLoc, "a: 2\n")
	if third := load(); third.Fingerprint() == second.Fingerprint() {
		t.Fatal("a new kv:// revision left the fingerprint")
	}
	if _, err := source.PutKV(t.Context(), e.conn(), source.Location{Scheme: source.Object, Bucket: "b", Key: "k"}, nil); !errors.Is(err, source.ErrLocation) {
		t.Fatalf("PutKV to an object: %v", err)
	}
}
