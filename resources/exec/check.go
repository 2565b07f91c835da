package exec

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/reactive-ccm/ccm/resources"
)

// Check decides whether the command needs to run: the exit code of a run
// that just happened is judged first, so a failed run (a refresh included)
// is reported even when the creates marker exists; then an existing creates
// marker; the guards (run even in noop: they only look); refreshonly; and
// for an exec with none of those, whether it already ran in this graph.
//
// Errors do not repeat the resource's id: the engine reports it.
func (e *exec) Check(ctx context.Context) (resources.Status, error) {
	exit := e.takeExit()
	st := resources.Status{Ensure: "present"}
	created := false
	if e.creates.IsSet() {
		path, found, err := e.marker()
		if err != nil {
			return st, err
		}
		created = found
		if !found {
			st.Ensure = "absent"
			st.Differences = []resources.Difference{{Property: "creates", Observed: "absent", Desired: "present", Note: path}}
		}
	}
	switch {
	case exit != nil:
		return e.judge(st, *exit), nil
	case created || e.refreshOnly:
		st.Desired, st.Differences = true, nil
	case e.onlyif.IsSet() || e.unless.IsSet():
		return e.guard(ctx, st)
	case !e.creates.IsSet() && e.hasRun():
		st.Desired = true
	case !e.creates.IsSet():
		st.Differences = []resources.Difference{notRun("")}
	}
	return st, nil
}

// judge reports a run's exit code against returns.
func (e *exec) judge(st resources.Status, code int) resources.Status {
	st.Desired = e.allowed(code)
	// Upstream's words, the code given twice.
	st.Differences = []resources.Difference{{Property: "exit code", Observed: strconv.Itoa(code), Desired: fmt.Sprint(e.returns),
		Text: fmt.Sprintf("exit code %d: exit code %d not in allowed returns %v", code, code, e.returns)}}
	if st.Desired {
		st.Differences = nil
		e.mu.Lock()
		e.ranOK = true
		e.mu.Unlock()
	}
	return st
}

// guard runs onlyif then unless: the command should run only when onlyif
// succeeds and unless fails. A guard that cannot run is an error, never a
// silent "do not run".
func (e *exec) guard(ctx context.Context, st resources.Status) (resources.Status, error) {
	if e.onlyif.IsSet() {
		code, err := e.run(ctx, e.onlyif, false, e.guardTimeout())
		if err != nil {
			return st, err
		}
		if code != 0 {
			st.Desired, st.Differences = true, nil
			return st, nil
		}
		st.Differences = []resources.Difference{notRun("onlyif exited 0")}
	}
	if e.unless.IsSet() {
		code, err := e.run(ctx, e.unless, false, e.guardTimeout())
		if err != nil {
			return st, err
		}
		if code == 0 {
			st.Desired, st.Differences = true, nil
			return st, nil
		}
		st.Differences = []resources.Difference{notRun(fmt.Sprintf("unless exited %d", code))}
	}
	return st, nil
}

// marker reports whether the creates path exists, a symlink there
// included. The way to it is walked like any managed path: a symlink
// someone other than root controls is an error, not a way to make the
// command run or stop running.
func (e *exec) marker() (string, bool, error) {
	path, err := e.creates.Resolve()
	if err != nil {
		return "", false, err
	}
	found, err := e.links.Exists(filepath.Clean(path))
	if err != nil {
		return path, false, fmt.Errorf("creates: %w", err)
	}
	return path, found, nil
}

// takeExit consumes the exit code of the last run, if any.
func (e *exec) takeExit() *int {
	e.mu.Lock()
	defer e.mu.Unlock()
	exit := e.exit
	e.exit = nil
	return exit
}

func (e *exec) hasRun() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.ranOK
}

// notRun is the difference of a command that should run: "command not
// run → run (onlyif exited 0)".
func notRun(why string) resources.Difference {
	return resources.Difference{Property: "command", Observed: "not run", Desired: "run", Note: why}
}
