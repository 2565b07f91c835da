package resources

import (
	"context"
	"strings"
	"time"
)

// Resource is one managed thing on the host, built from validated
// properties. The engine calls its methods from one goroutine at a time per
// resource; different resources run concurrently.
type Resource interface {
	// Watch describes what the engine must watch to learn that the real
	// state may have drifted. It is called once, before the first Check, and
	// must not block.
	Watch() WatchSpec

	// Check observes the current state and reports whether it is the
	// desired state. It never changes the host. It may block on I/O and must
	// return promptly when ctx is cancelled.
	Check(ctx context.Context) (Status, error)

	// Apply converges the resource in one call or returns an error. The
	// engine calls it when Check reported the state is not desired, or when a
	// refresh is pending. With req.Noop it changes nothing and describes what
	// it would have done. After a non-noop Apply the engine calls Check again
	// and reports ErrDesiredStateFailed when the state is still wrong.
	Apply(ctx context.Context, req Request) (Change, error)
}

// Status is what a Check observed.
type Status struct {
	// Ensure is the observed state in the type's ensure vocabulary
	// (present, absent, directory, running, a version...).
	Ensure string
	// Desired reports whether the observed state is the desired state.
	Desired bool
	// Differences say, when not desired, what differs, each observed →
	// desired; a check that reports Desired false lists at least one. They
	// end up in events and in ErrDesiredStateFailed messages.
	Differences []Difference
}

// Reason is the differences in one line: "mode 0600 → 0644; owner www →
// root".
func (s Status) Reason() string {
	parts := make([]string, len(s.Differences))
	for i, d := range s.Differences {
		parts[i] = d.String()
	}
	return strings.Join(parts, "; ")
}

// Request carries what the engine knows when it calls Apply.
type Request struct {
	// Status is the result of the Check that preceded this Apply.
	Status Status
	// Refresh is true when a subscribed resource changed and the refresh
	// has not yet been consumed by a successful Apply.
	Refresh bool
	// Noop forbids any change to the host.
	Noop bool
}

// Change is what an Apply did, or in noop what it would have done.
type Change struct {
	// Changed is true when the host was changed (or would have been, in noop).
	Changed bool
	// Refreshed is true when the change was caused by a refresh.
	Refreshed bool
	// NoopMessage describes the change that noop prevented
	// ("Would have created the file").
	NoopMessage string
}

// WatchSpec says what to watch for a resource. The engine routes every
// entry through shared hubs: one inotify instance, one systemd connection,
// one polling timer wheel. An empty WatchSpec means the resource is checked
// at start, on refresh and on the periodic re-check only.
type WatchSpec struct {
	// Paths are files or directories whose creation, removal, rename,
	// content or attribute change may mean drift. The hub watches each
	// path's parent directory (or nearest existing ancestor).
	Paths []string
	// Trees are directories watched recursively, for resources that manage
	// a whole tree.
	Trees []string
	// Inputs and InputTrees are files and trees whose content is part of
	// the desired state (a file's source, a scaffold's templates): a change
	// there is a new desired state, as a manifest change is, not drift.
	Inputs     []string
	InputTrees []string
	// Units are systemd unit names whose state changes may mean drift.
	Units []string
	// Mounts are mount points whose mounting, unmounting or remounting
	// may mean drift.
	Mounts []string
	// Poll, when non-zero, re-checks the resource at this interval even
	// when nothing else reports a change; PollDefault asks for the engine's
	// polling interval (--poll, else 10s). --poll overrides every interval.
	Poll time.Duration
	// Func, when set, is a resource's own event source. It runs until ctx
	// is cancelled, calling notify whenever the resource may have drifted;
	// it must call ready once it is armed.
	Func func(ctx context.Context, ready, notify func()) error
}

// Bounded is a resource with its own bound on each Check and Apply,
// overriding its type's (exec's `timeout`). The engine cancels the
// context it passes when the bound expires; the resource must return
// promptly then.
type Bounded interface {
	// Timeout returns the bound; zero keeps the type's.
	Timeout() time.Duration
}

// PollDefault in WatchSpec.Poll asks for the engine's polling interval.
const PollDefault time.Duration = -1

// Instance is what a Type builds from a Spec: the resource plus the facts
// the graph and the reports need about it.
type Instance struct {
	Resource Resource
	// Provider is the name of the selected provider, for reports.
	Provider string
	// Ensure is the requested ensure value, for reports.
	Ensure string
	// Owns lists paths this resource manages (a file, a directory tree);
	// resources with paths under them are ordered after it.
	Owns []string
	// Uses lists paths this resource needs to exist first (its own path,
	// a working directory, an extraction target).
	Uses []string
	// Independent is true when nothing the resources written next to it
	// do can change its outcome, except through the paths in Owns and
	// Uses (a file whose templates read no files). A run of consecutive
	// independent resources may run at once; any other resource runs
	// after everything written before it, and before everything after.
	Independent bool
	// Include, when set, names a manifest whose resources join the graph
	// in this resource's place (the apply type).
	Include *Include
	// Claims lists the files whose content this resource decides, whole
	// or in part. The graph refuses a file that one resource decides
	// whole while another decides any of it: each would undo the other.
	Claims []Claim
}

// Claim is a file whose content a resource decides.
type Claim struct {
	Path string
	// Whole is true when the resource decides all of the file's content
	// (or that it is absent, or a directory); false when it decides some
	// lines and leaves the others alone.
	Whole bool
	// What says how, for the error that refuses two claims: "content",
	// "ensure: absent", "the line PermitRootLogin no".
	What string
}

// Include is a manifest a resource brings into the graph. Its resources
// run where the including resource is written, in the same engine, so
// references cross between the manifests; a change of any of them
// refreshes the including resource, and a failure blocks it.
type Include struct {
	// File is the manifest's absolute path.
	File string
	// Noop runs the included resources in noop; it can only strengthen
	// the including manifest's mode.
	Noop bool
	// HealthCheckOnly runs only the included resources' health checks; it
	// can only strengthen the including manifest's mode.
	HealthCheckOnly bool
	// Nested allows the included manifest to include others.
	Nested bool
	// Data is merged over the included manifest's resolved data.
	Data map[string]any
}

// Undoable is a resource whose changes can be taken back (rollback): the
// engine keeps what an apply will replace, and restores it when the change
// made a subscriber's health checks fail.
type Undoable interface {
	// Save returns what Apply may change, as it is now, for Restore. It
	// never changes the host. An error means this state cannot be kept
	// (a symlink, a file too large): the change goes ahead without a way
	// back.
	Save(ctx context.Context) ([]byte, error)
	// Restore puts back what Save returned wherever the host differs from
	// it, and reports whether it changed anything.
	Restore(ctx context.Context, saved []byte) (changed bool, err error)
}

// GroupCommitter is a resource whose writes can share one sync with other
// resources' (a group commit): its Apply makes what it writes durable
// through commit.Sync, which waits for the commit.Group in its context.
// The engine runs the ready vertices whose resource joins, up to a bound,
// together in one group, each with its own Check, Apply and re-check as
// ever; only the sync before each rename is shared.
type GroupCommitter interface {
	// GroupCommit reports whether the resource joins commit groups. It is
	// asked once, when the engine takes up the resource's graph.
	GroupCommit() bool
}

// PropertyReporter is a resource that shows some of its properties in
// reports (events, the ensure response) otherwise than as written: a
// file's content as its digest and size, never its bytes.
type PropertyReporter interface {
	// ReportProperties rewrites props, the properties as written, in
	// place. It may be called from any goroutine, during a run or after
	// it, and never touches the host.
	ReportProperties(props map[string]any)
}
