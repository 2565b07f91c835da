package commit

import "context"

// groupKey is the context key of a member's run.
type groupKey struct{}

// member is a member's run: its Group, and what to call when it waits.
type member struct {
	g       *Group
	waiting func()
}

// WithGroup returns ctx carrying g, for a member's run. waiting, when not
// nil, is called when the member is about to wait in Sync for the others:
// whoever starts the members one after another starts the next one then.
func WithGroup(ctx context.Context, g *Group, waiting func()) context.Context {
	return context.WithValue(ctx, groupKey{}, member{g, waiting})
}

// Sync makes d durable: through the Group in ctx, if any, else with its
// own fsync.
func Sync(ctx context.Context, d Durable) error {
	if m, ok := ctx.Value(groupKey{}).(member); ok {
		return m.g.sync(ctx, d, m.waiting)
	}
	return d.Sync()
}
