package safepath

import (
	"os"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// TestMain lets a copy of the test binary run an attack step as uid
// 65534 (resourcetest.Race).
func TestMain(m *testing.M) { os.Exit(resourcetest.Main(m)) }
