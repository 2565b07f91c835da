package apt

import (
	"math/rand/v2"
	"os/exec"
	"testing"
)

// TestCompareVersionsAgreesWithDpkg checks the ordering against dpkg's own
// on pseudo-random versions made of the characters that matter.
func TestCompareVersionsAgreesWithDpkg(t *testing.T) {
	if _, err := exec.LookPath("dpkg"); err != nil {
		t.Skip("dpkg is not installed; the ordering is still covered by the tables")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		a, b := randomVersion(r), randomVersion(r)
		want, ok := dpkgOrder(a, b)
		if !ok {
			continue
		}
		got, err := CompareVersions(a, b)
		if err != nil {
			t.Errorf("CompareVersions(%q, %q): %v, but dpkg accepts both", a, b, err)
			continue
		}
		if got != want {
			t.Errorf("CompareVersions(%q, %q) = %d, dpkg says %d", a, b, got, want)
		}
	}
}

func randomVersion(r *rand.Rand) string {
	const first, rest = "0123456789ab", "0123456789.~+-a"
	b := []byte{first[r.IntN(len(first))]}
	for range 1 + r.IntN(6) {
		b = append(b, rest[r.IntN(len(rest))])
	}
	if r.IntN(4) == 0 {
		return string(rune('0'+r.IntN(4))) + ":" + string(b)
	}
	return string(b)
}

// dpkgOrder asks dpkg how a and b compare; ok is false when dpkg rejects
// either of them.
func dpkgOrder(a, b string) (order int, ok bool) {
	for _, c := range []struct {
		op    string
		order int
	}{{"lt", -1}, {"eq", 0}, {"gt", 1}} {
		if exec.Command("dpkg", "--compare-versions", a, c.op, b).Run() == nil {
			return c.order, true
		}
	}
	return 0, false
}
