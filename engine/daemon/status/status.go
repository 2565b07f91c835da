package status

import (
	"time"

	"github.com/reactive-ccm/ccm/resources"
)

// Standing is where a resource stands since its last run.
type Standing string

// The standings, from the most to the least pressing when several hold.
const (
	// Paused: an operator asked ccm to keep its hands off; drift is
	// reported, not repaired.
	Paused Standing = "paused"
	// Contested: repaired too often in a short window; backed off.
	Contested Standing = "contested"
	// RolledBack: a change of it failed a subscriber's health checks and
	// was undone; it is held at its last good state until released.
	RolledBack Standing = "rolled back"
	// Unhealthy: its last run failed its health checks.
	Unhealthy Standing = "unhealthy"
	// Failed: its last run failed; it is retried.
	Failed Standing = "failed"
	// Blocked: a resource it depends on failed.
	Blocked Standing = "blocked"
	// Pending: not run yet in this graph, or waiting to be checked.
	Pending Standing = "pending"
	// Converged: in its desired state as of its last check.
	Converged Standing = "converged"
)

// Report is the state of one ccm daemon.
type Report struct {
	Time time.Time `json:"time"`
	// Counts holds how many resources stand where.
	Counts Counts `json:"counts"`
	// PausedAll is set while every resource is paused.
	PausedAll *Pause     `json:"paused_all,omitempty"`
	Daemon    Daemon     `json:"daemon"`
	Resources []Resource `json:"resources"`
}

// Counts counts resources by standing.
type Counts struct {
	Resources int `json:"resources"`
	Converged int `json:"converged"`
	Failed    int `json:"failed"`
	Unhealthy int `json:"unhealthy"`
	// RolledBack counts resources held at their last good state.
	RolledBack int `json:"rolled_back"`
	Blocked    int `json:"blocked"`
	Contested  int `json:"contested"`
	Paused     int `json:"paused"`
	Pending    int `json:"pending"`
}

// Standings lists every standing in the order counts show them:
// converged first, then the others as Counts holds them.
var Standings = []Standing{Converged, Failed, Unhealthy, RolledBack, Blocked, Contested, Paused, Pending}

// Of is how many resources stand at s.
func (c Counts) Of(s Standing) int { return *c.of(s) }

// Add counts one resource of standing s.
func (c *Counts) Add(s Standing) { c.Resources++; *c.of(s)++ }

// Remove takes back a resource Add counted with standing s.
func (c *Counts) Remove(s Standing) { c.Resources--; *c.of(s)-- }

// of is the count of standing s; an unknown standing counts as pending.
func (c *Counts) of(s Standing) *int {
	switch s {
	case Converged:
		return &c.Converged
	case Failed:
		return &c.Failed
	case Unhealthy:
		return &c.Unhealthy
	case RolledBack:
		return &c.RolledBack
	case Blocked:
		return &c.Blocked
	case Contested:
		return &c.Contested
	case Paused:
		return &c.Paused
	}
	return &c.Pending
}

// Resource is one resource's standing and recent history.
type Resource struct {
	ID       string   `json:"id"`
	Alias    string   `json:"alias,omitempty"`
	Standing Standing `json:"standing"`
	// LastChange is the last change ccm made (or, paused or in noop, would
	// have made).
	LastChange *Change `json:"last_change,omitempty"`
	// LastError is the error of the last failed run while it stands.
	LastError string `json:"last_error,omitempty"`
	// Writer names the program changing a contested resource: "pid 1234
	// (sed -i …) uid 0", or "unknown".
	Writer string `json:"writer,omitempty"`
	// NextRetry is when a failed or contested resource runs again.
	NextRetry *time.Time `json:"next_retry,omitempty"`
	// Paused says who paused it until when.
	Paused *Pause `json:"paused,omitempty"`
	// Drift is what a paused resource would repair.
	Drift []resources.Difference `json:"drift,omitempty"`
}

// Change is one change to a resource and what caused it.
type Change struct {
	Time    time.Time              `json:"time"`
	Trigger string                 `json:"trigger"`
	Changes []resources.Difference `json:"changes,omitempty"`
	// Refreshed is set when a subscribed resource's change caused it.
	Refreshed bool `json:"refreshed,omitempty"`
}

// Pause is an operator's request to keep hands off.
type Pause struct {
	// By names who asked: the user of the client, and the user they
	// became root from when known ("root (sudo alice)").
	By    string    `json:"by"`
	Since time.Time `json:"since"`
	// Until is when the pause ends by itself; zero until resumed.
	Until time.Time `json:"until,omitzero"`
}

// Active reports whether the pause is in force at now.
func (p *Pause) Active(now time.Time) bool {
	return p != nil && (p.Until.IsZero() || now.Before(p.Until))
}

// Daemon is the health of the ccm process itself.
type Daemon struct {
	PID     int       `json:"pid"`
	Version string    `json:"version"`
	Started time.Time `json:"started"`
	// Uptime is in seconds.
	Uptime float64 `json:"uptime_seconds"`
	// Watches is how many directories inotify watches.
	Watches int `json:"inotify_watches"`
	// Polled is how many paths are polled because inotify refused them
	// or is unavailable (every watched path with --poll).
	Polled int `json:"polled_paths"`
	// Overflows counts inotify queue overflows, each a full re-check.
	Overflows uint64 `json:"inotify_overflows"`
	// Reloads and ReloadFailures count manifest reloads.
	Reloads        int       `json:"reloads"`
	ReloadFailures int       `json:"reload_failures"`
	LastReload     time.Time `json:"last_reload,omitzero"`
	// LastConverged is when every resource last stood converged.
	LastConverged time.Time `json:"last_converged,omitzero"`
}
