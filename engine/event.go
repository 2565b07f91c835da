package engine

import (
	"time"

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
	// TriggerResume: a rolled-back resource was released.
	TriggerResume Trigger = "resume"
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
	// HealthChecks are the results of the health checks this run ran.
	HealthChecks []resources.HealthResult `json:"health_check,omitempty"`
	// HealthCheckOnly is set when only the health checks ran
	// (--monitor-only).
	HealthCheckOnly bool    `json:"health_check_only,omitempty"`
	Trigger         Trigger `json:"trigger"`
	// Contested is set on the one event that reports a vertex being
	// repaired too often.
	Contested bool `json:"contested,omitempty"`
	// RolledBack is set on the event of a resource put back in its last
	// good state: the rollback itself (failed, with the reason), and the
	// repairs of a held resource.
	RolledBack bool `json:"rolled_back,omitempty"`
	// healthIdx holds the index of each result's check in the vertex.
	healthIdx []int
	// saved is the state kept before this run's apply, for a rollback.
	saved []byte
}

// ID is the resource's "type#name".
func (e *Event) ID() string { return e.Type + "#" + e.Name }

func newEvent(n *node, trig Trigger, noop bool) *Event {
	v := n.v
	return &Event{
		Protocol: EventProtocol, EventID: ksuid.New().String(), Timestamp: time.Now(),
		Type: v.Type, Provider: v.Provider, Name: v.Name, Alias: v.Alias,
		RequestedEnsure: v.Ensure, Trigger: trig, Noop: noop,
	}
}
