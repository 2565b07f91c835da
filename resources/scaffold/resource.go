package scaffold

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"golang.org/x/sys/unix"
)

// Watch asks for the target and source trees, recursively: a hand-edited,
// deleted or stray rendered file, or an edited template, is drift.
func (s *scaffold) Watch() resources.WatchSpec {
	return resources.WatchSpec{Trees: []string{s.target}, InputTrees: []string{s.source}}
}

// view is one look: the target opened by a safe walk (nil when it does
// not exist), the rendering, and how they compare. close releases them.
type view struct {
	st     state
	r      *rendering
	target *safepath.Dir
}

// close releases the view, reporting a failure through err unless err
// already holds one.
func (v *view) close(err *error) {
	var errs []error
	if v.r != nil {
		if cerr := v.r.Close(); cerr != nil {
			errs = append(errs, fmt.Errorf("removing the rendering: %w", cerr))
		}
	}
	errs = append(errs, v.target.Close())
	if cerr := errors.Join(errs...); cerr != nil && *err == nil {
		*err = cerr
	}
}

// Check renders the templates into a private temporary directory and
// compares them with the target. It never writes to the target (but
// removes the temporary files a killed apply left); post commands run, on
// the temporary files.
func (s *scaffold) Check(ctx context.Context) (_ resources.Status, err error) {
	v, err := s.observe(ctx)
	defer v.close(&err)
	if err != nil {
		return resources.Status{}, err
	}
	diffs := s.verdict(v)
	return resources.Status{Ensure: ensureOf(v.st), Desired: len(diffs) == 0, Differences: diffs}, nil
}

// observe opens the target, renders and compares. With ensure: absent and
// no target there is nothing to compare, and nothing is rendered: the
// source may be gone too.
func (s *scaffold) observe(ctx context.Context) (*view, error) {
	v := &view{}
	var err error
	if v.target, err = s.openTarget(); err != nil || (v.target == nil && s.p.Ensure == ensureAbsent) {
		return v, err
	}
	if v.r, err = s.render(ctx); err != nil {
		return v, err
	}
	v.st, err = s.compare(v.r, v.target)
	v.st.targetExists = v.target != nil
	return v, err
}

// openTarget opens the target directory, or returns nil when it does not
// exist; anything else at the target is an error.
func (s *scaffold) openTarget() (*safepath.Dir, error) {
	d, err := s.links.OpenDir(s.target)
	switch {
	case errors.Is(err, unix.ENOENT):
		return nil, nil
	case errors.Is(err, unix.ENOTDIR):
		return nil, fmt.Errorf("%s exists and is not a directory", s.target)
	}
	return d, err
}

// verdict applies the seed's stability rules and says what differs, file
// by file.
func (s *scaffold) verdict(v *view) []resources.Difference {
	st := v.st
	if s.p.Ensure == ensureAbsent {
		return each(managed(st), func(rel string) resources.Difference {
			return resources.Differs(rel, ensurePresent, ensureAbsent)
		})
	}
	switch {
	case !st.targetExists:
		return []resources.Difference{{Property: "ensure", Observed: ensureAbsent, Desired: ensurePresent, Note: s.target}}
	case len(st.added)+len(st.updated) > 0:
		subs := v.target.Subdirs()
		defer subs.Close()
		return slices.Concat(
			each(st.added, func(rel string) resources.Difference { return resources.Differs(rel, "absent", "present") }),
			each(st.updated, func(rel string) resources.Difference { return fileDifference(v.r, rel, subs) }))
	case len(st.stable) == 0:
		return []resources.Difference{{Property: "source", Observed: "renders no files", Desired: "renders files", Note: s.source}}
	case len(st.purged) > 0:
		return each(st.purged, func(rel string) resources.Difference {
			return resources.Difference{Property: rel, Observed: "present", Desired: "absent", Note: "purge"}
		})
	}
	return nil
}

// mostDifferences bounds how many files one check describes.
const mostDifferences = 20

// each describes the first mostDifferences paths, then how many more.
func each(paths []string, describe func(string) resources.Difference) []resources.Difference {
	out := make([]resources.Difference, 0, min(len(paths), mostDifferences+1))
	for i, rel := range paths {
		if i == mostDifferences {
			out = append(out, resources.Differs("other files", fmt.Sprintf("%d differ", len(paths)-i), "0 differ"))
			break
		}
		out = append(out, describe(rel))
	}
	return out
}

// managed lists the rendered files that exist in the target.
func managed(st state) []string {
	return slices.Concat(st.updated, st.stable)
}

// Apply renders into the target, or removes the rendered files for ensure:
// absent; in noop it only counts the files it would touch.
func (s *scaffold) Apply(ctx context.Context, req resources.Request) (_ resources.Change, err error) {
	v, err := s.observe(ctx)
	defer v.close(&err)
	if err != nil {
		return resources.Change{}, err
	}
	if s.p.Ensure == ensureAbsent {
		return s.applyAbsent(v, req.Noop)
	}
	return s.applyPresent(ctx, v, req.Noop)
}

func (s *scaffold) applyPresent(ctx context.Context, v *view, noop bool) (resources.Change, error) {
	n := len(v.st.added) + len(v.st.updated) + len(v.st.purged)
	if noop {
		return noopChange(n, "Would have changed %d scaffold files"), nil
	}
	if err := s.runValidate(ctx, v.r, slices.Concat(v.st.added, v.st.updated)); err != nil {
		return resources.Change{}, err
	}
	if err := s.write(v); err != nil {
		return resources.Change{Changed: true}, err
	}
	if err := s.purge(v.target, v.st.purged); err != nil {
		return resources.Change{Changed: true}, err
	}
	return resources.Change{Changed: n > 0 || !v.st.targetExists}, nil
}

func (s *scaffold) applyAbsent(v *view, noop bool) (resources.Change, error) {
	files := managed(v.st)
	if noop {
		return noopChange(len(files)+len(v.st.purged), "Would have removed %d scaffold files"), nil
	}
	if v.target == nil {
		return resources.Change{}, nil
	}
	return resources.Change{Changed: len(files) > 0}, s.remove(v.target, files, v.r.dirs)
}

// noopChange reports n affected files; nothing is changed when n is zero.
func noopChange(n int, format string) resources.Change {
	if n == 0 {
		return resources.Change{}
	}
	return resources.Change{Changed: true, NoopMessage: fmt.Sprintf(format, n)}
}

// ensureOf is the observed ensure: present when the target exists.
func ensureOf(st state) string {
	if st.targetExists {
		return ensurePresent
	}
	return ensureAbsent
}
