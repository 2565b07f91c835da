package archive

import (
	"context"
	"errors"
	"fmt"

	"github.com/reactive-ccm/ccm/resources"
	"golang.org/x/sys/unix"
)

// Watch asks for the archive's path and the creates marker: a deleted or
// replaced archive, or a deleted marker, is drift.
func (a *archive) Watch() resources.WatchSpec {
	return resources.WatchSpec{Paths: nonEmpty(a.name, a.p.Creates)}
}

// Check reports whether the archive is in its desired state. It changes
// nothing; with a checksum set it reads the whole archive.
func (a *archive) Check(ctx context.Context) (resources.Status, error) {
	o, err := a.observe(ctx)
	if err != nil {
		return resources.Status{}, a.secrets.Err(err)
	}
	diffs := a.verdict(o)
	for i := range diffs {
		diffs[i].Note = a.secrets.String(diffs[i].Note)
	}
	return resources.Status{Ensure: ensureOf(o), Desired: len(diffs) == 0, Differences: diffs}, nil
}

// Apply downloads, extracts, cleans up or removes as the observed state
// requires; in noop it only says which of those it would have done.
func (a *archive) Apply(ctx context.Context, req resources.Request) (resources.Change, error) {
	o, err := a.observe(ctx)
	if err != nil {
		return resources.Change{}, a.secrets.Err(err)
	}
	p := a.planFor(o)
	if p.empty() {
		return resources.Change{}, nil
	}
	if req.Noop {
		return resources.Change{Changed: true, NoopMessage: p.noopMessage()}, nil
	}
	changed, err := a.run(ctx, p)
	return resources.Change{Changed: changed}, a.secrets.Err(err)
}

// run carries out a plan's steps in order, stopping at the first error.
// It reports whether any step changed the host.
func (a *archive) run(ctx context.Context, p plan) (bool, error) {
	steps := []struct {
		on bool
		do func(context.Context) error
	}{
		{p.download, a.download},
		{p.extract, a.extract},
		{p.remove || p.cleanup, a.remove},
	}
	changed := false
	for _, s := range steps {
		if !s.on {
			continue
		}
		if err := s.do(ctx); err != nil {
			return changed, err
		}
		changed = true
	}
	return changed, nil
}

// remove deletes the archive file, relative to its directory opened by a
// safe walk; extracted content is never removed.
func (a *archive) remove(context.Context) error {
	dir, base, err := a.links.OpenParent(a.name)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return err
	}
	defer dir.Close()
	if err := dir.Unlink(base); err != nil && !errors.Is(err, unix.ENOENT) {
		return fmt.Errorf("removing %s: %w", a.name, err)
	}
	return nil
}

// ensureOf is the observed ensure: present when the archive file exists.
func ensureOf(o observed) string {
	if o.exists {
		return ensurePresent
	}
	return ensureAbsent
}
