package commit

import "context"

// groupKey is the context key of a member's Group.
type groupKey struct{}

// WithGroup returns ctx carrying g, for a member's run.
func WithGroup(ctx context.Context, g *Group) context.Context {
	return context.WithValue(ctx, groupKey{}, g)
}

// Sync makes d durable: through the Group in ctx, if any, else with its
// own fsync.
func Sync(ctx context.Context, d Durable) error {
	if g, ok := ctx.Value(groupKey{}).(*Group); ok {
		return g.Sync(ctx, d)
	}
	return d.Sync()
}
