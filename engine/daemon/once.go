package daemon

import (
	"context"
	"errors"
	"io"
	"log/slog"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
	"github.com/reactive-ccm/ccm/watchers/clock"
)

// Output is where and how a one-shot run prints: its events (as Print
// says), the summary and the manifests' messages on Stdout, with a
// progress display there unless Print.JSON; the logs on Stderr.
type Output struct {
	Stdout, Stderr io.Writer
	Print          eventlog.Options
	// NoSummary leaves the run's summary out (apply --no-report).
	NoSummary bool
}

// Hooks adds the fleet's hooks to the options of a one-shot run (a
// reporter hearing the events, the registrations announced), with the
// logger the run logs to, and returns what tells them the engine's state
// when the run ends.
type Hooks func(log *slog.Logger, opts *engine.Options) (finish func(engine.State), err error)

// Failed is Once's error when a resource failed or the run was stopped;
// Err is the engine's error, nil when it had none.
type Failed struct{ Err error }

func (e *Failed) Error() string {
	if e.Err == nil {
		return "the run did not converge"
	}
	return e.Err.Error()
}
func (e *Failed) Unwrap() error { return e.Err }

// Once converges c.Graph once with c.Engine, as `ccm run` does without
// --watch: the events printed to out (replacing Engine.Events), hooks
// told how it ended, then the summary and, after a run without errors,
// each manifest's post_message, as upstream does.
func Once(ctx context.Context, c Config, out Output, hooks Hooks) error {
	log := c.Engine.Logger
	if log == nil {
		log = slog.Default()
	}
	prog := eventlog.StartProgress(out.Stdout, !out.Print.JSON, len(c.Graph.Vertices), log, clock.Real())
	defer prog.End()
	log = prog.Logger(log, out.Stderr)
	slog.SetDefault(log)
	p := eventlog.NewPrinter(prog.Output(out.Stdout), out.Print)
	defer p.Flush()
	opts := c.Engine
	opts.Events, opts.Logger = p.Event, log
	prog.Hook(&opts)
	finish, err := hooks(log, &opts)
	if err != nil {
		return err
	}
	for _, m := range c.Graph.Manifests {
		p.Message(m.PreMessage)
	}
	e := engine.New(c.Graph, opts)
	sum, err := e.Run(ctx)
	prog.End()
	finish(e.State())
	if !out.NoSummary {
		p.Summary(sum, opts.Noop)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return &Failed{Err: err}
	}
	if !sum.OK() || ctx.Err() != nil {
		return &Failed{}
	}
	for _, m := range c.Graph.Manifests {
		p.Message(m.PostMessage)
	}
	return nil
}
