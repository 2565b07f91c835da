package engine

import (
	"context"
)

// expand runs n, an apply resource whose child manifest is pending: it
// reads the child (graph.Graph.Expand) and swaps in the graph holding the
// child's resources. They run where n is written, n's replacement after
// them, and n's own run reports nothing. An error is n's failure: the
// child cannot be read or does not compile; in watch mode n retries.
func (e *Engine) expand(ctx context.Context, n *node, trig Trigger) error {
	e.swapMu.Lock()
	defer e.swapMu.Unlock()
	e.mu.Lock()
	g, gone := e.g, n.life.gone()
	e.mu.Unlock()
	if gone {
		// A reload replaced n while it waited: its replacement decides.
		return nil
	}
	next, err := g.Expand(n.v.Pending)
	if err != nil {
		return err
	}
	if trig != TriggerStartup {
		trig = TriggerReload
	}
	if _, err := e.swap(ctx, next, trig); err != nil {
		// n is replaced already: its failure would go unreported.
		e.opts.Logger.Error("loading a child manifest", "resource", n.v.ID(), "error", err)
	}
	return nil
}
