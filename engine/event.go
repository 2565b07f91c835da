package engine

import (
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/status"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/segmentio/ksuid"
)

// Trigger says what made a vertex run.
type Trigger string

const (
	TriggerStartup Trigger = "startup"
	TriggerDrift   Trigger = "drift"
	TriggerRefresh Trigger = "refresh"
	TriggerPoll    Trigger = "poll"
	TriggerRecheck Trigger = "recheck"
	TriggerReload  Trigger = "reload"
	TriggerRetry   Trigger = "retry"
	// TriggerHealth: a health check's own period came round.
	TriggerHealth Trigger = "health"
	// TriggerRollback: a subscriber's CRITICAL check asked for this
	// resource's change to be rolled back.
	TriggerRollback Trigger = "rollback"
	// TriggerResume: a pause ended, or a rolled-back resource was
	// released.
	TriggerResume Trigger = "resume"
	// TriggerSource: a file the desired state is read from (a file's
	// source, a scaffold's templates) changed: a new desired state.
	TriggerSource Trigger = "source"
)

// EventProtocol is upstream CCM's protocol name for transaction events.
const EventProtocol = "io.choria.ccm.v1.transaction.event"

// Event is the record of one check (and apply) of one resource, with the
// fields of upstream CCM's TransactionEvent plus what triggered it. Its
// JSON is upstream's: every field present, error and unmet_requirements
// lists even when empty.
type Event struct {
	Protocol        string        `json:"protocol"`
	EventID         string        `json:"event_id"`
	Timestamp       time.Time     `json:"timestamp"`
	Type            string        `json:"type"`
	Provider        string        `json:"provider"`
	Name            string        `json:"name"`
	Alias           string        `json:"alias,omitempty"`
	RequestedEnsure string        `json:"requested_ensure"`
	FinalEnsure     string        `json:"final_ensure"`
	Duration        time.Duration `json:"duration"`
	Properties      Properties    `json:"properties"`
	// Status is the resource's state after the run; nil when the run
	// failed or did not happen, as upstream reports it.
	Status            *ResourceState `json:"status"`
	Changed           bool           `json:"changed"`
	Refreshed         bool           `json:"refreshed"`
	Failed            bool           `json:"failed"`
	Skipped           bool           `json:"skipped"`
	Noop              bool           `json:"noop"`
	NoopMessage       string         `json:"noop_message,omitempty"`
	Error             List           `json:"error"`
	UnmetRequirements List           `json:"unmet_requirements"`
	Trigger           Trigger        `json:"trigger"`
	// Contested is set on the one event that reports a vertex being
	// repaired too often.
	Contested bool `json:"contested,omitempty"`
	// Writer names the program changing a contested resource, on the
	// event reporting the contest and on repairs while it lasts:
	// "pid 1234 (sed -i …) uid 0", or "unknown".
	Writer string `json:"writer,omitempty"`
	// Changes are what the check found different, observed → desired:
	// what the run changed, or in noop or paused would have changed, or
	// failed to change. Diffs are kept only with Options.Diff.
	Changes []resources.Difference `json:"changes,omitempty"`
	// Paused is set when the resource is paused: it was checked, and
	// nothing was changed or refreshed.
	Paused bool `json:"paused,omitempty"`
	// Standing is the resource's standing after the run;
	// PreviousStanding is set when the run changed it.
	Standing         status.Standing `json:"standing,omitempty"`
	PreviousStanding status.Standing `json:"previous_standing,omitempty"`
	// Unchecked is set when the resource was reported without being
	// checked: a one-shot run stopped before it (fail_on_error, an
	// interruption), or noop did not make a change it depends on. Upstream
	// CCM records no transaction event for these.
	Unchecked bool `json:"-"`
	// HealthChecks are the results of the health checks this run ran.
	HealthChecks []resources.HealthResult `json:"health_check,omitempty"`
	// HealthCheckOnly is set when only the health checks ran
	// (--monitor-only).
	HealthCheckOnly bool `json:"health_check_only,omitempty"`
	// RolledBack is set on the event of a resource put back in its last
	// good state: the rollback itself (failed, with the reason), and the
	// repairs of a held resource.
	RolledBack bool `json:"rolled_back,omitempty"`
	// healthIdx holds the index of each result's check in the vertex.
	healthIdx []int
	// saved is the state kept before this run's apply, for a rollback.
	saved []byte
	// external marks events of external vertices, which are not reported.
	external bool
	// id is the vertex's ID, for ID.
	id string
}

// List is a list of strings that encodes as [] when empty, as upstream's
// lists do.
type List []string

func (l List) MarshalJSON() ([]byte, error) {
	if l == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]string(l))
}

// Properties are the properties of the resource an event is about, as
// graph.Vertex.Properties gives them: decoded only when the event is
// encoded, so an event nobody encodes costs nothing for them.
type Properties struct {
	vertex *graph.Vertex
	// values are the properties of a decoded event.
	values map[string]any
}

// Map returns the properties.
func (p Properties) Map() map[string]any {
	if p.values == nil && p.vertex != nil {
		return p.vertex.Properties()
	}
	return p.values
}

func (p Properties) MarshalJSON() ([]byte, error) { return json.Marshal(p.Map()) }

func (p *Properties) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &p.values) }

// ResourceState is upstream CCM's record of a resource's state after a run
// (protocol io.choria.ccm.v1.resource.TYPE.state), without the metadata
// each of its types adds.
type ResourceState struct {
	Protocol  string    `json:"protocol"`
	Timestamp time.Time `json:"timestamp"`
	Type      string    `json:"type"`
	Name      string    `json:"name"`
	Ensure    string    `json:"ensure"`
	Changed   bool      `json:"changed"`
	Refreshed bool      `json:"refreshed"`
	// Stable is true when the resource is in its desired state after the
	// run.
	Stable      bool   `json:"stable"`
	Noop        bool   `json:"noop"`
	NoopMessage string `json:"noop_message,omitempty"`
}

// ID is the resource's "type#name".
func (e *Event) ID() string {
	if e.id != "" {
		return e.id
	}
	return e.Type + "#" + e.Name
}

func newEvent(n *node, trig Trigger, noop bool) *Event {
	v := n.v
	now := time.Now()
	return &Event{
		Protocol: EventProtocol, EventID: eventID(now), Timestamp: now,
		Type: v.Type, Provider: v.Provider, Name: v.Name, Alias: v.Alias,
		RequestedEnsure: v.Ensure, Trigger: trig, Noop: noop, Properties: Properties{vertex: v}, external: v.External,
		id: v.ID(),
	}
}

// state records the resource's state after a run that did not fail,
// stamped with the end of the run.
func (e *Event) state(stable bool) {
	e.Status = &ResourceState{
		Protocol: stateProtocol(e.Type), Timestamp: e.Timestamp.Add(e.Duration),
		Type: e.Type, Name: e.Name, Ensure: e.FinalEnsure, Changed: e.Changed, Refreshed: e.Refreshed,
		Stable: stable, Noop: e.Noop, NoopMessage: e.NoopMessage,
	}
}

// stateProtocols caches each type's state protocol name, so an event
// does not build it again.
var stateProtocols sync.Map

// stateProtocol is upstream's protocol name of a type's resource state,
// io.choria.ccm.v1.resource.TYPE.state.
func stateProtocol(typ string) string {
	if p, ok := stateProtocols.Load(typ); ok {
		return p.(string)
	}
	p := "io.choria.ccm.v1.resource." + typ + ".state"
	stateProtocols.Store(typ, p)
	return p
}

// eventID returns a new ksuid for an event at t. Its payload comes from
// the runtime's generator (ChaCha8, seeded by the kernel), as unique as
// ksuid.New's without its getrandom(2) call and lock per event: an ID
// names an event, it guards nothing.
func eventID(t time.Time) string {
	var payload [16]byte
	binary.LittleEndian.PutUint64(payload[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(payload[8:], rand.Uint64())
	// FromParts fails only on a payload of another size than ksuid's.
	id, _ := ksuid.FromParts(t, payload[:])
	return id.String()
}
