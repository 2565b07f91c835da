package release_test

import (
	"fmt"
	"testing"

	"github.com/reactive-ccm/ccm/engine/fleet/release"
)

func TestWavesAreStableAndNested(t *testing.T) {
	var hosts []string
	for i := range 1000 {
		hosts = append(hosts, fmt.Sprintf("web-%d.example.com", i))
	}
	count := func(r release.Rollout) (map[string]bool, int) {
		in := map[string]bool{}
		for _, h := range hosts {
			if release.InWave(h, r) {
				in[h] = true
			}
		}
		return in, len(in)
	}
	narrow, n := count(release.Rollout{Digest: "SHA-256=a", Percent: 10})
	if n < 70 || n > 130 {
		t.Fatalf("10%% of 1000 hosts chose %d", n)
	}
	wide, w := count(release.Rollout{Digest: "SHA-256=a", Percent: 50})
	if w < 440 || w > 560 {
		t.Fatalf("50%% of 1000 hosts chose %d", w)
	}
	for h := range narrow {
		if !wide[h] {
			t.Fatalf("%s left the wave when it widened", h)
		}
	}
	if _, all := count(release.Rollout{Digest: "SHA-256=a", Percent: 100}); all != len(hosts) {
		t.Fatalf("100%% chose %d of %d", all, len(hosts))
	}
	other, _ := count(release.Rollout{Digest: "SHA-256=b", Percent: 10})
	same := 0
	for h := range other {
		if narrow[h] {
			same++
		}
	}
	if same > n/2 {
		t.Fatalf("another revision chose mostly the same canaries (%d of %d)", same, n)
	}
}
