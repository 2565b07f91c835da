package report

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Names of what the reports live in.
const (
	Stream        = "CCM_EVENTS"
	SubjectPrefix = "ccm.events."
	Bucket        = "CCM_STATUS"
)

// Revision is a source and a revision of it.
type Revision struct {
	Source   string `json:"source"`
	Revision string `json:"revision"`
	Cached   bool   `json:"cached,omitempty"`
	// Since is when the host applied it (in Applied).
	Since time.Time `json:"since,omitzero"`
}

// Refusal is the last revision of a source the host refused, and why.
type Refusal struct {
	Source   string    `json:"source"`
	Revision string    `json:"revision"`
	Reason   string    `json:"reason"`
	Time     time.Time `json:"time"`
}

// Status is what a host reports about itself.
type Status struct {
	Host string `json:"host"`
	// Updated is when the status was published.
	Updated   time.Time `json:"updated"`
	Resources int       `json:"resources"`
	Converged int       `json:"converged"`
	Failed    int       `json:"failed"`
	Blocked   int       `json:"blocked"`
	Contested int       `json:"contested"`
	Pending   int       `json:"pending"`
	// Unhealthy and RolledBack count resources whose health checks failed
	// and whose change was rolled back.
	Unhealthy  int `json:"unhealthy,omitempty"`
	RolledBack int `json:"rolled_back,omitempty"`
	// FailedResources and ContestedResources name them ("type#name").
	FailedResources    []string `json:"failed_resources,omitempty"`
	ContestedResources []string `json:"contested_resources,omitempty"`
	// ContestedWriters names the program changing each contested
	// resource, by ID: "pid 1234 (sed -i …) uid 0", or "unknown".
	ContestedWriters map[string]string `json:"contested_writers,omitempty"`
	// Sources are the remote sources and the revisions fetched and in
	// force there; Applied the revisions of the manifests the host runs,
	// which lag behind while a new revision does not compile.
	Sources []Revision `json:"sources,omitempty"`
	Applied []Revision `json:"applied,omitempty"`
	// Refused lists the last revision each source refused.
	Refused []Refusal `json:"refused,omitempty"`
	// Instance identifies the reporting process; Duplicate names another
	// process that reported under the same host name since this one last
	// did (two hosts with one --hostname).
	Instance  string `json:"instance,omitempty"`
	Duplicate string `json:"duplicate,omitempty"`
	// LastSettled is when the engine last went idle after a change;
	// LastConverged when it last did so with every resource converged.
	LastSettled   time.Time `json:"last_settled,omitzero"`
	LastConverged time.Time `json:"last_converged,omitzero"`
	// ReloadError is why the last reload failed, while the running graph
	// stays in force; empty once a reload succeeds.
	ReloadError string `json:"reload_error,omitempty"`
	// Heartbeat is the longest the host waits between two publications.
	Heartbeat time.Duration `json:"heartbeat"`
	// DroppedEvents counts events lost while NATS was away and the queue
	// was full.
	DroppedEvents uint64 `json:"dropped_events,omitempty"`
}

// Stale reports whether the host has missed its heartbeats: nothing
// published for three of them.
func (s Status) Stale(now time.Time) bool {
	hb := s.Heartbeat
	if hb <= 0 {
		hb = DefaultHeartbeat
	}
	return now.Sub(s.Updated) > 3*hb
}

// ErrHostName is returned for a host name that cannot name a host in
// subjects and keys.
var ErrHostName = errors.New("fleet: bad host name")

// CheckHost refuses a host name that is not usable as it is as a NATS
// subject suffix and key: letters, digits, '-', '_', and dots between
// them, at most 255 bytes. Names are never rewritten, so two hosts can
// never end up under one key (web.1 and web_1 stay apart).
func CheckHost(host string) error {
	ok := host != "" && len(host) <= 255 && !strings.HasPrefix(host, ".") && !strings.HasSuffix(host, ".") && !strings.Contains(host, "..")
	for _, r := range host {
		ok = ok && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	}
	if !ok {
		return fmt.Errorf("%w: %q: use letters, digits, '-', '_' and dots between them (at most 255 bytes); set one with --hostname", ErrHostName, host)
	}
	return nil
}
