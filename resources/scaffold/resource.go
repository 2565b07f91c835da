package scaffold

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/reactive-ccm/ccm/resources"
)

// Watch asks for the target and source trees, recursively: a hand-edited,
// deleted or stray rendered file, or an edited template, is drift.
func (s *scaffold) Watch() resources.WatchSpec {
	return resources.WatchSpec{Trees: []string{s.target, s.source}}
}

// Check renders the templates into a private temporary directory and
// compares them with the target. It never writes to the target; post
// commands run, on the temporary files.
func (s *scaffold) Check(ctx context.Context) (_ resources.Status, err error) {
	st, r, err := s.observe(ctx)
	defer closeRendering(r, &err)
	if err != nil {
		return resources.Status{}, err
	}
	diffs := s.verdict(st, r)
	return resources.Status{Ensure: ensureOf(st), Desired: len(diffs) == 0, Differences: diffs}, nil
}

// observe renders and compares. With ensure: absent and no target there is
// nothing to compare, and nothing is rendered: the source may be gone too.
func (s *scaffold) observe(ctx context.Context) (state, *rendering, error) {
	exists, err := isDir(s.target)
	if err != nil || (!exists && s.p.Ensure == ensureAbsent) {
		return state{}, nil, err
	}
	r, err := s.render(ctx)
	if err != nil {
		return state{}, nil, err
	}
	st, err := s.compare(r)
	st.targetExists = exists
	return st, r, err
}

// verdict applies the seed's stability rules and says what differs, file
// by file.
func (s *scaffold) verdict(st state, r *rendering) []resources.Difference {
	if s.p.Ensure == ensureAbsent {
		return each(managed(st), func(rel string) resources.Difference {
			return resources.Differs(rel, ensurePresent, ensureAbsent)
		})
	}
	switch {
	case !st.targetExists:
		return []resources.Difference{{Property: "ensure", Observed: ensureAbsent, Desired: ensurePresent, Note: s.target}}
	case len(st.added)+len(st.updated) > 0:
		return slices.Concat(
			each(st.added, func(rel string) resources.Difference { return resources.Differs(rel, "absent", "present") }),
			each(st.updated, func(rel string) resources.Difference {
				return fileDifference(rel, r.path(rel), filepath.Join(s.target, rel))
			}))
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
	st, r, err := s.observe(ctx)
	defer closeRendering(r, &err)
	if err != nil {
		return resources.Change{}, err
	}
	if s.p.Ensure == ensureAbsent {
		return s.applyAbsent(st, r, req.Noop)
	}
	return s.applyPresent(st, r, req.Noop)
}

func (s *scaffold) applyPresent(st state, r *rendering, noop bool) (resources.Change, error) {
	n := len(st.added) + len(st.updated) + len(st.purged)
	if noop {
		return noopChange(n, "Would have changed %d scaffold files"), nil
	}
	if err := s.write(st, r); err != nil {
		return resources.Change{Changed: true}, err
	}
	if err := s.purge(st.purged); err != nil {
		return resources.Change{Changed: true}, err
	}
	return resources.Change{Changed: n > 0 || !st.targetExists}, nil
}

func (s *scaffold) applyAbsent(st state, r *rendering, noop bool) (resources.Change, error) {
	files := managed(st)
	if noop {
		return noopChange(len(files)+len(st.purged), "Would have removed %d scaffold files"), nil
	}
	if !st.targetExists {
		return resources.Change{}, nil
	}
	return resources.Change{Changed: len(files) > 0}, s.remove(files, r.dirs)
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

// isDir reports whether path is a directory (following symbolic links);
// anything else at path is an error.
func isDir(path string) (bool, error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, err
	case !fi.IsDir():
		return false, fmt.Errorf("%s exists and is not a directory", path)
	}
	return true, nil
}
