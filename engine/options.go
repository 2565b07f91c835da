package engine

import (
	"context"
	"log/slog"
	"runtime"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/watchers/clock"
)

// Options configure an Engine. The zero value runs once, in parallel, with
// no output.
type Options struct {
	// Noop reports what would change and changes nothing.
	Noop bool
	// Watch keeps the engine running after the first convergence,
	// repairing drift until the context is cancelled.
	Watch bool
	// Workers bounds how many vertices run at once, besides the members
	// of commit groups (GroupCommit); default 8, at least twice the CPUs.
	Workers int
	// GroupCommit bounds how many vertices whose resources share the
	// sync of their writes (resources.GroupCommitter) run at once in
	// commit groups, all groups together; a group takes at most a
	// quarter of them. 1 turns group commit off. Each member holds up to
	// three descriptors while it waits for its group: the default, 256,
	// is less where the descriptor limit is low.
	GroupCommit int
	// OnGroupSync, when set, is told of each sync a commit group makes
	// and how many files it made durable.
	OnGroupSync func(files int)
	// Events receives every event, one call at a time.
	Events func(*Event)
	// Logger receives operational messages; default slog.Default().
	Logger *slog.Logger
	// Watchers are the shared event sources used in watch mode.
	Watchers Watchers
	// PollInterval replaces resources.PollDefault; default 10s.
	PollInterval time.Duration
	// ForcePoll makes every watch a poll at PollInterval (--poll).
	ForcePoll bool
	// Recheck is the period of the full re-check in watch mode, with
	// jitter; default 30 minutes, negative disables it.
	Recheck time.Duration
	// ShutdownGrace bounds how long running applies may finish after the
	// context is cancelled; default 3s, so that with the 2s a killed
	// program has to exit, ccm stops within 5s.
	ShutdownGrace time.Duration
	// HealthInterval is how often watch mode runs each health check by
	// itself, with jitter, unless the check has its own interval; default
	// one minute, negative disables it.
	HealthInterval time.Duration
	// Rollback undoes a change to a resource (a new desired state, not a
	// drift repair) that makes a subscriber's health checks fail
	// CRITICAL, for resources that can be undone and do not say
	// otherwise (their rollback property). Off by default.
	Rollback bool
	// MonitorOnly runs only the health checks: nothing is checked against
	// its desired state, nothing is changed.
	MonitorOnly bool
	Retry       RetryPolicy
	Contest     ContestPolicy
	// Verbose reports every run; otherwise only the runs that changed
	// something (or in noop would have), failed, were skipped or changed
	// the resource's standing, and each resource's first run.
	Verbose bool
	// Diff keeps the unified diffs of content in events' Changes.
	Diff bool
	// Observe, when set, sees every run, reported or quiet, for metrics.
	// It is called with the engine's lock held and must not block.
	Observe func(Observation)
	// Started, when set, is told of every run as it begins, with the
	// vertex's ID, so a progress display can say what is running (each
	// run then ends in a call of Observe). It is called with the
	// engine's lock held and must not block.
	Started func(id string)
	// Timeouts bound each check and each apply of a resource type
	// ("exec", "package"), replacing the type's default; a resource's own
	// timeout property still wins.
	Timeouts map[string]time.Duration
	// Clock schedules retries, back-offs and the periodic re-check;
	// default the system clock. Tests pass a clock.Fake and move time
	// instead of sleeping. Durations in events and the shutdown grace are
	// measured on the system clock.
	Clock clock.Clock
	// State is the state directory: pending refreshes are written there
	// before the change that caused them is reported, removed once
	// consumed, and replayed when an engine for the same graph starts.
	// Nil keeps them in memory only. In noop they are read, never written.
	State *state.Dir
	// StateKey names this graph's files in State; it must be the same for
	// the same manifests across restarts and reloads. Default: a digest of
	// the manifest file paths.
	StateKey string
	// OnSettled is called in watch mode each time the engine becomes idle
	// after something changed: after the first convergence, after repairs
	// and failures, after reloads; not after checks that found everything
	// in order. It is called after the events that led to it, one call at
	// a time, and must not block.
	OnSettled func(State)
	// Announce, when set, is told whether each vertex that registers
	// services (graph.Vertex.Registrations) stands stable: converged,
	// managed on this host, its health checks all OK, not paused. It is
	// told when that changes, once the vertex ran; a failure, a health
	// check that is not OK, a contest or a pause tells it false at once,
	// and so does a reload that drops the vertex's registrations. Never
	// in noop. It is called with the engine's lock held and must not
	// block.
	Announce func(v *graph.Vertex, stable bool)
}

// Watchers are the event sources a watching engine routes resources'
// WatchSpecs to. Each returns a cancel function that drops the
// registration. Nil sources fall back to polling.
type Watchers struct {
	// Paths watches a file or directory path for any change: notify on
	// an event, polled on each poll when the source had to poll the path.
	Paths func(path string, notify, polled func()) (cancel func())
	// Trees watches every directory of a tree, recursively.
	Trees func(root string, notify func()) (cancel func())
	// Units watches a systemd unit.
	Units func(unit string, notify func()) (cancel func())
	// Lookups watches what a resource's templates looked up in the
	// service registry (registrations()): notify whenever an entry one
	// of its queries selects comes, changes or goes. Such a change is a
	// new desired state, not drift.
	Lookups func(l *resources.Lookups, notify func()) (cancel func())
	// Mounts watches what is mounted at a mount point.
	Mounts func(path string, notify func()) (cancel func())
	// Poll calls notify every interval, with jitter.
	Poll func(interval time.Duration, notify func()) (cancel func())
	// Ready returns once every source is armed, so no change between a
	// first check and its watch goes unseen.
	Ready func(ctx context.Context) error
	// Writers starts watching who changes paths, so that a contested
	// resource names the program fighting over it. It is called with the
	// engine's lock held, only for a resource repaired twice in one
	// episode of the contest rule (ContestPolicy), and the witness is
	// closed when the fight ends. Nil names nobody ("unknown").
	Writers func(paths []string) Witness
	// Flush, when set, calls the notify functions of every event the
	// sources had queued when it was called, before it returns. The
	// engine calls it after an apply, so the check that verifies the
	// apply covers the events of its own write, which then ask for no
	// further check.
	Flush func()
}

func (o Options) withDefaults() Options {
	if o.Workers <= 0 {
		o.Workers = max(8, 2*runtime.GOMAXPROCS(0))
	}
	if o.GroupCommit <= 0 {
		o.GroupCommit = defaultGroupCommit()
	}
	if o.Clock == nil {
		o.Clock = clock.Real()
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Events == nil {
		o.Events = func(*Event) {}
	}
	if o.PollInterval <= 0 {
		o.PollInterval = 10 * time.Second
	}
	if o.Recheck == 0 {
		o.Recheck = 30 * time.Minute
	}
	if o.HealthInterval == 0 {
		o.HealthInterval = time.Minute
	}
	if o.ShutdownGrace <= 0 {
		o.ShutdownGrace = 3 * time.Second
	}
	if o.Retry.Base <= 0 {
		o.Retry = RetryPolicy{Base: time.Second, Max: 5 * time.Minute}
	}
	if o.Contest.Window <= 0 {
		o.Contest = ContestPolicy{Window: time.Minute, Limit: 5, Backoff: 30 * time.Second, MaxBackoff: 10 * time.Minute}
	}
	if o.Contest.Gap <= 0 {
		o.Contest.Gap = DefaultContestGap
	}
	if o.Contest.Calm <= 0 {
		o.Contest.Calm = o.Contest.Window
	}
	return o
}
