package engine

import (
	"time"

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
// fields of upstream CCM's TransactionEvent plus what triggered it.
type Event struct {
	Protocol          string        `json:"protocol"`
	EventID           string        `json:"event_id"`
	Timestamp         time.Time     `json:"timestamp"`
	Type              string        `json:"type"`
	Provider          string        `json:"provider"`
	Name              string        `json:"name"`
	Alias             string        `json:"alias,omitempty"`
	RequestedEnsure   string        `json:"requested_ensure"`
	FinalEnsure       string        `json:"final_ensure"`
	Duration          time.Duration `json:"duration"`
	Changed           bool          `json:"changed"`
	Refreshed         bool          `json:"refreshed"`
	Failed            bool          `json:"failed"`
	Skipped           bool          `json:"skipped"`
	Noop              bool          `json:"noop"`
	NoopMessage       string        `json:"noop_message,omitempty"`
	Error             []string      `json:"error,omitempty"`
	UnmetRequirements []string      `json:"unmet_requirements,omitempty"`
	Trigger           Trigger       `json:"trigger"`
	// Contested is set on the one event that reports a vertex being
	// repaired too often.
	Contested bool `json:"contested,omitempty"`
	// external marks events of external vertices, which are not reported.
	external bool
}

// ID is the resource's "type#name".
func (e *Event) ID() string { return e.Type + "#" + e.Name }

func newEvent(n *node, trig Trigger, noop bool) *Event {
	v := n.v
	return &Event{
		Protocol: EventProtocol, EventID: ksuid.New().String(), Timestamp: time.Now(),
		Type: v.Type, Provider: v.Provider, Name: v.Name, Alias: v.Alias,
		RequestedEnsure: v.Ensure, Trigger: trig, Noop: noop, external: v.External,
	}
}
