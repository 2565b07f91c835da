package exec

import (
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
)

func init() {
	resources.Register(resources.Type{Name: "exec", Subscribes: true, New: New, Props: props{},
		Help: "Run a command, once or when guards or refreshes say so", NameHelp: "the command to run (or a label when command is set)",
		// A command without a timeout; see Timeout for guards.
		Timeout: 10 * time.Minute})
}

// exec is one command. Its fields are fixed at build time except the run
// record, which carries an exit code from Apply to the Check after it.
type exec struct {
	id   string
	argv argv

	command resources.Deferred
	// cwd, creates, onlyif and unless are unset (not IsSet) when the
	// manifest does not give them.
	cwd, creates, onlyif, unless resources.Deferred
	env                          []resources.Deferred
	path                         string
	returns                      []int
	timeout                      time.Duration
	// grace is how long a stopped command has after SIGTERM; 0 for the
	// runner's default.
	grace                  time.Duration
	refreshOnly, logOutput bool
	// secrets is set for a sensitive exec. It keeps logoutput's lines out
	// of the log, since a command's output can carry what it was given (as
	// Puppet, which redacts it too), and records each program run, which
	// the runner's errors name apart from the rest of the command line.
	secrets *resources.Secrets
	// links says which symlinks on the way to creates may be followed
	// besides root's own.
	links safepath.Policy

	mu sync.Mutex
	// exit is the exit code of the last run, until a Check consumes it.
	exit *int
	// ranOK is true once a run's exit code was in returns; an exec without
	// creates, guards or refreshonly runs once per graph, not in a loop.
	ranOK bool
}

var (
	_ resources.Resource = (*exec)(nil)
	_ resources.Bounded  = (*exec)(nil)
)

// New builds an exec resource from its manifest properties.
func New(spec *resources.Spec) (resources.Instance, error) {
	p, errs := resources.DecodeProps[props](spec)
	validate(spec, p, errs)
	provider, unusable := resources.SelectProvider(p.Provider, providers)
	e := &exec{
		id: spec.ID(), argv: argvs[provider],
		path: p.Path, returns: p.Returns, refreshOnly: p.RefreshOnly, logOutput: p.LogOutput,
		secrets: spec.Secrets,
	}
	if e.argv == nil {
		e.argv = posixArgv
	}
	e.deferreds(spec, p, errs)
	var err error
	if e.links, err = safepath.Allow(p.FollowSymlinks...); err != nil {
		errs.Addf(spec.KeyPos("follow_symlinks"), "follow_symlinks: %v", err)
	}
	if spec.Has("timeout") {
		if e.timeout, err = parseTimeout(p.Timeout); err != nil {
			errs.Addf(spec.KeyPos("timeout"), "timeout: %v", err)
		}
	}
	if spec.Has("timeout_grace") {
		if e.grace, err = parseTimeout(p.TimeoutGrace); err != nil {
			errs.Addf(spec.KeyPos("timeout_grace"), "timeout_grace: %v", err)
		}
	}
	if len(e.returns) == 0 {
		e.returns = []int{0}
	}
	if err := errs.Err(); err != nil {
		return resources.Instance{}, err
	}
	// As upstream, ensure: absent is accepted and changes nothing: an exec
	// has no way to be absent.
	ensure := "present"
	if p.Ensure != "" {
		ensure = p.Ensure
	}
	inst := resources.Instance{Resource: e, Provider: provider, Ensure: ensure, Uses: e.uses()}
	if unusable != nil {
		// Known but not usable here: the manifest is fine, the run fails.
		inst.Resource = resources.Unusable(unusable)
	}
	return inst, nil
}

// deferreds builds the deferred properties, checking those without
// templates now.
func (e *exec) deferreds(spec *resources.Spec, p *props, errs *resources.ErrorList) {
	runnable := func(s string) error { _, _, err := e.argv(s); return err }
	if spec.Has("command") {
		e.command = deferProp(spec, "command", p.Command, spec.KeyPos("command"), runnable, errs)
	} else {
		// The graph has already resolved the name's templates.
		e.command = resources.NewDeferred(resources.Literal{}, "command", spec.Name, spec.Pos).WithCheck(runnable)
		if err := runnable(spec.Name); err != nil {
			errs.Addf(spec.Pos, "%s: the name is the command, and it %v", e.id, err)
		}
	}
	for _, f := range []struct {
		key   string
		dst   *resources.Deferred
		raw   string
		check func(string) error
	}{
		{"cwd", &e.cwd, p.Cwd, checkCleanAbs},
		{"creates", &e.creates, p.Creates, checkCleanAbs},
		{"onlyif", &e.onlyif, p.OnlyIf, runnable},
		{"unless", &e.unless, p.Unless, runnable},
	} {
		if spec.Has(f.key) {
			*f.dst = deferProp(spec, f.key, f.raw, spec.KeyPos(f.key), f.check, errs)
		}
	}
	for i, entry := range p.Environment {
		label := fmt.Sprintf("environment: item %d", i+1)
		e.env = append(e.env, deferProp(spec, label, entry, itemPos(spec, "environment", i), checkEnv, errs))
	}
}

// uses lists the paths that must exist before the command runs, when they
// are known without templates: the working directory, and for posix a
// program given by absolute path, so a file resource that writes a script
// is ordered before the exec that runs it.
func (e *exec) uses() []string {
	var out []string
	if cwd, ok := e.cwd.Literal(); ok {
		out = append(out, cwd)
	}
	// The command writes its creates marker, so it needs the marker's
	// directory managed first.
	if creates, ok := e.creates.Literal(); ok {
		out = append(out, creates)
	}
	if cmd, ok := e.command.Literal(); ok {
		if prog, _, err := e.argv(cmd); err == nil && prog != shell && filepath.IsAbs(prog) {
			out = append(out, prog)
		}
	}
	return out
}

// Watch polls when the state is outside the process: a creates marker
// (also watched as a path, so its removal is seen at once) or a guard. An
// exec with refreshonly, or with nothing to look at, is checked only at
// start, on refresh and by the periodic re-check.
func (e *exec) Watch() resources.WatchSpec {
	if e.refreshOnly || !(e.creates.IsSet() || e.onlyif.IsSet() || e.unless.IsSet()) {
		return resources.WatchSpec{}
	}
	w := resources.WatchSpec{Poll: resources.PollDefault}
	if e.creates.IsSet() {
		if path, err := e.creates.Resolve(); err == nil {
			w.Paths = []string{path}
		}
	}
	return w
}

// allowed reports whether code is one of the accepted exit codes.
func (e *exec) allowed(code int) bool { return slices.Contains(e.returns, code) }
