package driftoracle_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// config is one way to run the daemon.
type config struct {
	// fs is "tmpfs" or "disk".
	fs       string
	poll     bool
	workers1 bool
}

func (c config) String() string {
	mode, workers := "inotify", "default"
	if c.poll {
		mode = "poll"
	}
	if c.workers1 {
		workers = "1"
	}
	return fmt.Sprintf("%s/%s/workers=%s", c.fs, mode, workers)
}

// bound is how long after a burst every path must be back: the
// promise is "at once"; the bound leaves room for a loaded machine, a
// disk's syncs and a poll's interval. The race detector slows the daemon
// tenfold: a burst that sweeps 2,000 files then takes longer than the
// bound to repair with one worker, and only a lost event is caught.
func (c config) bound() time.Duration {
	b := 2 * time.Second
	if c.fs == "disk" {
		b = 5 * time.Second
	}
	if c.poll {
		b += pollInterval
	}
	return b * slowdown
}

// pollInterval is the interval of the --poll configurations.
const pollInterval = 250 * time.Millisecond

// idleFor is how long the daemon must report nothing to be idle.
const idleFor = 200 * time.Millisecond

func configs() []config {
	var out []config
	for _, fs := range []string{"tmpfs", "disk"} {
		for _, poll := range []bool{false, true} {
			for _, w1 := range []bool{true, false} {
				out = append(out, config{fs: fs, poll: poll, workers1: w1})
			}
		}
	}
	return out
}

func TestDriftOracle(t *testing.T) {
	seed := *seedFlag
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d", seed)
	cs := configs()
	per := *durationFlag / time.Duration(len(cs))
	for i, c := range cs {
		t.Run(c.String(), func(t *testing.T) {
			o := newOracle(t, c, seed+uint64(i))
			o.run(per)
		})
	}
}

// oracle is one configuration's run: the tree, the daemon, the bursts.
type oracle struct {
	t    *testing.T
	c    config
	seed uint64
	// base holds the tree's root and what is renamed away from it.
	base, scratch string
	rs            []*resource
	managed       map[string]*resource
	d             *daemon
	// seq numbers the names tampers make; tampers counts them.
	seq, tampers atomic.Int64
	usage        usage
	// replay is the command that runs this run again.
	replay string
	// lateFixes are how long the bursts took to be repaired whose
	// operator fixes waited for a retry back-off beyond the bound.
	lateFixes []time.Duration
}

func newOracle(t *testing.T, c config, seed uint64) *oracle {
	o := prepare(t, c)
	o.seed = seed
	o.replay = fmt.Sprintf("go test ./cmd/ccm/driftoracle -count=1 -run 'TestDriftOracle/%s$' -args -seed=%d -duration=%v",
		c, seed-uint64(slices.Index(configs(), c)), *durationFlag)
	o.launch(generate(rand.New(rand.NewPCG(seed, 0)), filepath.Join(o.base, "root")))
	t.Logf("seed %d: %d resources under %s", seed, len(o.rs), o.base)
	return o
}

// prepare makes the directories of a run on c's filesystem: base for
// the tree, scratch for what symlinks point to.
func prepare(t *testing.T, c config) *oracle {
	dir := fsDir(t, c.fs)
	o := &oracle{t: t, c: c, base: filepath.Join(dir, "tree"), scratch: filepath.Join(dir, "scratch")}
	for _, d := range []string{o.base, filepath.Join(o.scratch, "dir")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(o.scratch, "file"), []byte("scratch\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return o
}

// launch starts the daemon managing rs, which live below o.base.
func (o *oracle) launch(rs []*resource) {
	o.rs = rs
	o.managed = map[string]*resource{}
	for _, r := range rs {
		o.managed[r.path] = r
	}
	dir := filepath.Dir(o.base)
	m := filepath.Join(dir, "manifest.yaml")
	if err := os.WriteFile(m, []byte(manifest(rs)), 0o644); err != nil {
		o.t.Fatal(err)
	}
	o.d = startDaemon(o.t, o.c, m, filepath.Join(dir, "state"))
	if !o.d.waitEvents("startup", len(rs), slowdown*time.Minute) {
		o.t.Fatalf("the daemon did not converge %d resources at startup\n%s", len(rs), o.d.logTail(40))
	}
}

// fsDir is a fresh directory on the filesystem fs names.
func fsDir(t *testing.T, fs string) string {
	t.Helper()
	candidates := []string{"/dev/shm"}
	if fs == "disk" {
		candidates = []string{os.TempDir(), "/var/tmp"}
	}
	for _, c := range candidates {
		var st unix.Statfs_t
		if unix.Statfs(c, &st) != nil || (st.Type == unix.TMPFS_MAGIC) != (fs == "tmpfs") {
			continue
		}
		dir, err := os.MkdirTemp(c, "ccm-driftoracle-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		return dir
	}
	t.Skipf("no %s directory among %v", fs, candidates)
	return ""
}

// run converges the tree, then bursts until the time is up.
func (o *oracle) run(d time.Duration) {
	start := time.Now()
	if bad := o.settle(start, nil); len(bad) > 0 {
		o.fail("startup", start, nil, bad)
	}
	o.usage.sample(o.t, o.d)
	bursts := 0
	for ; bursts == 0 || time.Since(start) < d; bursts++ {
		began := time.Now()
		ops := o.burst(bursts)
		fixed := o.operate()
		if bad := o.settle(began, fixed); len(bad) > 0 {
			o.fail(fmt.Sprintf("burst %d (seed %d)", bursts, o.seed), began, ops, bad)
		}
		o.clean()
		if bad := o.settle(time.Now(), nil); len(bad) > 0 {
			o.fail(fmt.Sprintf("burst %d (seed %d)", bursts, o.seed), began, ops, bad)
		}
		o.usage.sample(o.t, o.d)
	}
	o.t.Logf("%d bursts, %d tampers, %d repairs; contests declared %d",
		bursts, o.tampers.Load(), o.d.count(start, func(ev event) bool { return ev.Changed }),
		o.d.count(start, func(ev event) bool { return ev.Contested }))
	if len(o.lateFixes) > 0 {
		o.t.Logf("%d bursts were repaired only after the retry back-off of a resource the operator fixed: %v", len(o.lateFixes), o.lateFixes)
	}
	o.usage.check(o.t, o.d, o.c)
}

// op is one tamper of a burst, as the failure report shows it.
type op struct {
	hand   int
	at     time.Duration
	tamper string
	target *resource
	err    error
}

func (p op) String() string {
	s := fmt.Sprintf("  hand %d +%v %s %s", p.hand, p.at.Round(time.Microsecond), p.tamper, p.target.short())
	if p.err != nil {
		s += ": " + p.err.Error()
	}
	return s
}

// burst tampers from several goroutines at once, as fast as they can,
// and returns what they did. One burst in three has a hand sweep a
// directory, doing one tamper to every file in it, as an operator's
// script does.
func (o *oracle) burst(b int) []op {
	rng := rand.New(rand.NewPCG(o.seed, uint64(b)+1))
	hands := 2 + rng.IntN(4)
	sweep := rng.IntN(3) == 0
	var mu sync.Mutex
	var ops []op
	var wg sync.WaitGroup
	start := make(chan struct{})
	began := time.Now()
	for i := range hands {
		h := &hand{rng: rand.New(rand.NewPCG(o.seed, uint64(b)<<8|uint64(i))), scratch: o.scratch, seq: &o.seq}
		plan := o.randomOps(h)
		if sweep && i == 0 {
			plan = o.sweepOps(h)
		}
		wg.Go(func() {
			<-start
			for _, p := range plan {
				p.hand = i
				p.at = time.Since(began)
				p.err = o.do(h, p)
				mu.Lock()
				ops = append(ops, p)
				mu.Unlock()
			}
		})
	}
	close(start)
	wg.Wait()
	return ops
}

// do runs the tamper p names.
func (o *oracle) do(h *hand, p op) error {
	o.tampers.Add(1)
	for _, tp := range p.target.kind.tampers {
		if tp.name == p.tamper {
			return tp.do(h, p.target)
		}
	}
	return fmt.Errorf("no tamper %q", p.tamper)
}

func (o *oracle) randomOps(h *hand) []op {
	var plan []op
	for range 1 + h.rng.IntN(40) {
		r := o.rs[h.rng.IntN(len(o.rs))]
		plan = append(plan, op{tamper: r.kind.tampers[h.rng.IntN(len(r.kind.tampers))].name, target: r})
	}
	return plan
}

// sweepOps does one file tamper to every file of a directory, or of the
// whole tree.
func (o *oracle) sweepOps(h *hand) []op {
	dir := o.rs[0].path
	if h.rng.IntN(2) == 0 {
		dir = o.pickDir(h)
	}
	name := fileKind.tampers[h.rng.IntN(len(fileKind.tampers))].name
	var plan []op
	for _, r := range o.rs {
		if r.kind == fileKind && strings.HasPrefix(r.path, dir+"/") {
			plan = append(plan, op{tamper: name, target: r})
		}
	}
	return plan
}

func (o *oracle) pickDir(h *hand) string {
	for {
		if r := o.rs[h.rng.IntN(len(o.rs))]; r.kind == dirKind {
			return r.path
		}
	}
}

// operate does what an operator does about the drifts ccm reports and
// leaves alone on purpose, and returns the resources it acted on.
func (o *oracle) operate() map[*resource]bool {
	fixed := map[*resource]bool{}
	for _, r := range o.rs {
		if r.kind.operator == nil {
			continue
		}
		acted, err := r.kind.operator(r)
		if err != nil {
			o.t.Logf("operator on %s: %v", r, err)
		}
		if acted {
			fixed[r] = true
		}
	}
	return fixed
}

// retryGrace bounds the repair of a resource after the operator removed
// what ccm refused to: its repair failed meanwhile, and a failed resource
// waits for its retry back-off (1 s, doubling with each failure) before
// it is looked at again, whatever the events say.
const retryGrace = 30 * time.Second

// settle waits until every resource holds, for at most the bound after
// from (retryGrace for those in fixed), then until the daemon is idle,
// and returns the resources that do not hold then.
func (o *oracle) settle(from time.Time, fixed map[*resource]bool) []*resource {
	strict, lenient := from.Add(o.c.bound()), from.Add(retryGrace)
	pending := o.rs
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		pending = o.failing(pending)
		if len(pending) == 0 {
			break
		}
		now := time.Now()
		if now.After(lenient) || !o.d.alive() {
			return pending
		}
		if late := without(pending, fixed); now.After(strict) && len(late) > 0 {
			return late
		}
		<-tick.C
	}
	if late := time.Since(from); late > o.c.bound() {
		o.lateFixes = append(o.lateFixes, late)
	}
	for time.Since(o.d.idleSince()) < idleFor && time.Now().Before(strict.Add(o.c.bound())) {
		<-tick.C
	}
	return o.failing(o.rs)
}

func without(rs []*resource, set map[*resource]bool) []*resource {
	var out []*resource
	for _, r := range rs {
		if !set[r] {
			out = append(out, r)
		}
	}
	return out
}

func (o *oracle) failing(rs []*resource) []*resource {
	var out []*resource
	for _, r := range rs {
		if r.kind.holds(r) != "" {
			out = append(out, r)
		}
	}
	return out
}

// clean removes what the bursts left beside the managed paths: renamed
// away copies, noise, symlink targets written through.
func (o *oracle) clean() {
	var errs []error
	var sweep func(dir string)
	sweep = func(dir string) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			r, ok := o.managed[p]
			switch {
			case !ok:
				errs = append(errs, os.RemoveAll(p))
			case r.kind == dirKind && e.IsDir():
				sweep(p)
			}
		}
	}
	sweep(o.base)
	if err := errors.Join(errs...); err != nil {
		o.t.Logf("cleaning up after a burst: %v", err)
	}
}

// maxListed bounds the paths, tampers and events a failure lists.
const maxListed = 60

// fail reports resources left wrong after what (a burst, startup), with
// what it takes to replay the run, and ends the test.
func (o *oracle) fail(what string, began time.Time, ops []op, bad []*resource) {
	o.t.Helper()
	late := o.lateness(began, bad)
	var w strings.Builder
	fmt.Fprintf(&w, "%d of %d managed paths not in their desired state %v after %s (%s), which began at %s; replay with\n  %s\n",
		len(bad), len(o.rs), o.c.bound(), what, o.c, began.Format("15:04:05.000"), o.replay)
	paths := map[string]bool{}
	var lines []string
	for _, r := range bad {
		paths[r.path] = true
		why := r.kind.holds(r) + " (still, 10 s later)"
		if d, ok := late[r]; ok {
			why = fmt.Sprintf("repaired late, %v after the burst began", d.Round(time.Millisecond))
		}
		lines = append(lines, r.short()+": "+why)
	}
	list(&w, "", lines)
	if !o.d.alive() {
		w.WriteString("the daemon exited\n")
	}
	if len(ops) > 0 {
		list(&w, fmt.Sprintf("%s: %d tampers; those on these paths or above them (paths below %s, runs of a letter shortened):", what, len(ops), o.base), about(ops, paths))
	}
	list(&w, "the daemon's events about these paths since the burst began:", o.shortened(o.d.eventsAbout(paths, began)))
	list(&w, "the daemon's last log lines:", o.shortened(strings.Split(o.d.logTail(maxListed), "\n")))
	o.t.Fatal(w.String())
}

// shortened shortens the paths in lines as failures show them.
func (o *oracle) shortened(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = shorten(strings.ReplaceAll(l, o.base+"/", ""))
	}
	return out
}

// lateness waits up to 10 s for bad to be repaired, and returns how long
// after began each one was.
func (o *oracle) lateness(began time.Time, bad []*resource) map[*resource]time.Duration {
	late := map[*resource]time.Duration{}
	for wait := time.Now(); len(late) < len(bad) && time.Since(wait) < 10*time.Second; time.Sleep(50 * time.Millisecond) {
		for _, r := range bad {
			if _, ok := late[r]; !ok && r.kind.holds(r) == "" {
				late[r] = time.Since(began)
			}
		}
	}
	return late
}

// about lists the tampers of ops on one of paths or a directory above one.
func about(ops []op, paths map[string]bool) []string {
	var out []string
	for _, p := range ops {
		for path := range paths {
			if isUnder(path, p.target.path) {
				out = append(out, p.String())
				break
			}
		}
	}
	return out
}

func isUnder(path, dir string) bool { return path == dir || strings.HasPrefix(path, dir+"/") }

// list writes a title and at most maxListed lines.
func list(w *strings.Builder, title string, lines []string) {
	if title != "" {
		w.WriteString(title + "\n")
	}
	for i, l := range lines {
		if i == maxListed {
			fmt.Fprintf(w, "  and %d more\n", len(lines)-i)
			break
		}
		w.WriteString("  " + strings.TrimLeft(l, " ") + "\n")
	}
}
