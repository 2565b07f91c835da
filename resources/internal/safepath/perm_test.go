package safepath_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/safepath"
)

// TestCreatePerm: a temporary file is created giving no one but root more
// than the final file gives others, and no one but root write.
func TestCreatePerm(t *testing.T) {
	for mode, want := range map[uint32]uint32{
		0o644: 0o644, 0o755: 0o755, 0o600: 0o600, 0o444: 0o444,
		0o640: 0o600, 0o664: 0o644, 0o666: 0o644, 0o777: 0o755,
		0o604: 0o604, 0o460: 0o400, 0o000: 0o000, 0o751: 0o711,
	} {
		if got := safepath.CreatePerm(mode); got != want {
			t.Errorf("CreatePerm(%04o) = %04o, want %04o", mode, got, want)
		}
	}
}
