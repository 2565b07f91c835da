package engine

import (
	"encoding/json"
	"time"

	"github.com/reactive-ccm/ccm/graph"
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
)

// EventProtocol is upstream CCM's protocol name for transaction events.
const EventProtocol = "io.choria.ccm.v1.transaction.event"

// Event is the record of one check (and apply) of one resource, with the
// fields of upstream CCM's TransactionEvent plus what triggered it. In
// JSON, error and unmet_requirements are always lists, as upstream's.
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
	// Properties are the resource's properties as written; see
	// graph.Vertex.Properties. Like Status, they are filled in when the
	// event is encoded, so an event nobody encodes costs nothing for them.
	Properties map[string]any `json:"properties"`
	// Status is the resource's state after the run; nil when the run
	// failed or did not happen, as upstream reports it.
	Status            *ResourceState `json:"status"`
	Changed           bool           `json:"changed"`
	Refreshed         bool           `json:"refreshed"`
	Failed            bool           `json:"failed"`
	Skipped           bool           `json:"skipped"`
	Noop              bool           `json:"noop"`
	NoopMessage       string         `json:"noop_message,omitempty"`
	Error             []string       `json:"error"`
	UnmetRequirements []string       `json:"unmet_requirements"`
	Trigger           Trigger        `json:"trigger"`
	// Contested is set on the one event that reports a vertex being
	// repaired too often.
	Contested bool `json:"contested,omitempty"`
	// Unchecked is set when the resource was reported without being
	// checked: a one-shot run stopped before it (fail_on_error, an
	// interruption), or noop did not make a change it depends on. Upstream
	// CCM records no transaction event for these.
	Unchecked bool `json:"-"`

	// vertex is the resource's, for Properties.
	vertex *graph.Vertex
	// ran is set when the run did not fail, stable when the resource was
	// in its desired state after it: what Status says.
	ran, stable bool
}

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
func (e *Event) ID() string { return e.Type + "#" + e.Name }

// MarshalJSON encodes the event with its properties, and with empty lists
// where error and unmet_requirements are nil.
func (e Event) MarshalJSON() ([]byte, error) {
	type plain Event
	p := plain(e)
	if p.Properties == nil && e.vertex != nil {
		p.Properties = e.vertex.Properties()
	}
	if p.Status == nil && e.ran {
		p.Status = e.state()
	}
	if p.Error == nil {
		p.Error = []string{}
	}
	if p.UnmetRequirements == nil {
		p.UnmetRequirements = []string{}
	}
	return json.Marshal(p)
}

func newEvent(n *node, trig Trigger, noop bool) *Event {
	v := n.v
	return &Event{
		Protocol: EventProtocol, EventID: ksuid.New().String(), Timestamp: time.Now(),
		Type: v.Type, Provider: v.Provider, Name: v.Name, Alias: v.Alias,
		RequestedEnsure: v.Ensure, Trigger: trig, Noop: noop, vertex: v,
	}
}

// state is the resource's state after a run that did not fail, stamped
// with the end of the run.
func (e Event) state() *ResourceState {
	return &ResourceState{
		Protocol: "io.choria.ccm.v1.resource." + e.Type + ".state", Timestamp: e.Timestamp.Add(e.Duration),
		Type: e.Type, Name: e.Name, Ensure: e.FinalEnsure, Changed: e.Changed, Refreshed: e.Refreshed,
		Stable: e.stable, Noop: e.Noop, NoopMessage: e.NoopMessage,
	}
}
