package control

import (
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

// DefaultPath is where the daemon listens unless told otherwise.
const DefaultPath = "/run/ccm/ccm.sock"

// PathEnv names the environment variable that overrides DefaultPath for
// the daemon and the clients alike.
const PathEnv = "CCM_SOCKET"

// RingSize is how many recent events the daemon keeps for `ccm events`.
const RingSize = 1000

// Controller is what the socket steers: the engine, with the daemon's
// health added to its status.
type Controller interface {
	Status() status.Report
	Pause(refs []string, p status.Pause) error
	PauseAll(p status.Pause)
	Resume(refs []string) error
	ResumeAll()
	Recheck()
	RecheckResource(ref string) error
}

// PauseRequest asks to pause resources, or every resource with All.
type PauseRequest struct {
	Resources []string `json:"resources,omitempty"`
	All       bool     `json:"all,omitempty"`
	// For is how long the pause lasts; zero until resumed.
	For time.Duration `json:"for,omitempty"`
	// SudoUser is the user the client came from through sudo, as the
	// client reports it; the socket itself tells the client's user.
	SudoUser string `json:"sudo_user,omitempty"`
}

// Valid reports whether r names resources or asks for all, not both, for
// a duration that is not negative.
func (r PauseRequest) Valid() bool { return r.All != (len(r.Resources) > 0) && r.For >= 0 }

// ResumeRequest asks to resume resources, or every pause with All.
type ResumeRequest struct {
	Resources []string `json:"resources,omitempty"`
	All       bool     `json:"all,omitempty"`
}

// Valid reports whether r names resources or asks for all, not both.
func (r ResumeRequest) Valid() bool { return r.All != (len(r.Resources) > 0) }

// RecheckRequest asks to check one resource now, or all when Resource is
// empty.
type RecheckRequest struct {
	Resource string `json:"resource,omitempty"`
}

// Reply answers a pause, resume or re-check.
type Reply struct {
	// Pause is the pause recorded, for a pause request.
	Pause *status.Pause `json:"pause,omitempty"`
	Error string        `json:"error,omitempty"`
}
