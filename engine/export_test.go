package engine

import (
	"testing"
	"time"
)

// SetRelayPatience sets how long a commit group's member runs before the
// members left start (relayPatience), until the test ends.
func SetRelayPatience(t testing.TB, d time.Duration) {
	old := relayPatience
	relayPatience = d
	t.Cleanup(func() { relayPatience = old })
}
