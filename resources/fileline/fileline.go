package fileline

import (
	"context"
	"errors"
	"fmt"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/internal/textfile"
)

// providers are the ways of editing lines; posix is the only one.
var providers = []resources.Provider{{Name: "posix", Priority: 1, Usable: resources.Always}}

func init() {
	resources.Register(resources.Type{Name: "file_line", New: New, Props: props{}, Inspect: inspect,
		Help:     "Keep one line, or a marked block of lines, present in or absent from a file whose other lines are left alone",
		NameHelp: "a name for the line (the block's default markers use it)"})
}

// fileLine is one managed line or block of one file.
type fileLine struct {
	path string
	edit *edit
}

var _ resources.Resource = (*fileLine)(nil)

// New builds a file_line resource from its manifest properties.
func New(spec *resources.Spec) (resources.Instance, error) {
	p, errs := resources.DecodeProps[props](spec)
	e := validate(spec, p, errs)
	if err := errs.Err(); err != nil {
		return resources.Instance{}, err
	}
	spec.Secrets.Add(p.Line)
	spec.Secrets.Add(p.Block)
	what := "the line " + p.Line
	switch {
	case e.block != nil:
		what = "the block " + e.begin
	case !spec.Has("line"):
		what = "the lines matching " + p.Match
	}
	return resources.Instance{
		Resource: &fileLine{path: p.Path, edit: e}, Provider: providers[0].Name, Ensure: e.ensure,
		Uses:   []string{p.Path},
		Claims: []resources.Claim{{Path: p.Path, What: what}},
	}, nil
}

// Watch asks for events on the file: an edit, a replacement, a removal.
func (f *fileLine) Watch() resources.WatchSpec {
	return resources.WatchSpec{Paths: []string{f.path}}
}

// look reads the file with read and works out the edit it needs.
func (f *fileLine) look(read func() (*textfile.File, error)) (*textfile.File, []string, change, error) {
	file, err := read()
	if err != nil {
		return nil, nil, change{}, err
	}
	if !file.Exists {
		return file, nil, change{}, nil
	}
	out, c, err := f.edit.apply(textfile.Lines(file.Content))
	if err != nil {
		return nil, nil, change{}, errors.Join(fmt.Errorf("%s %w", f.path, err), file.Close())
	}
	return file, out, c, nil
}

// Check reports whether the line (or block) is present, and when it is
// not as wanted, what an apply would change. It changes nothing.
func (f *fileLine) Check(context.Context) (resources.Status, error) {
	file, _, c, err := f.look(func() (*textfile.File, error) { return textfile.Read(safepath.Policy{}, f.path) })
	if err != nil {
		return resources.Status{}, err
	}
	defer file.Close()
	return f.status(file.Exists, c), nil
}

// status is what a check reports of a file and the change it needs.
func (f *fileLine) status(exists bool, c change) resources.Status {
	switch {
	case !exists && f.edit.ensure == Absent:
		return resources.Status{Ensure: Absent, Desired: true}
	case !exists:
		return resources.Status{Ensure: Absent, Differences: []resources.Difference{resources.Differs("file", "absent", "present")}}
	}
	found := Present
	if c.kind == textfile.Added || c.kind == "" && f.edit.ensure == Absent {
		found = Absent
	}
	st := resources.Status{Ensure: found, Desired: c.kind == ""}
	if !st.Desired {
		st.Differences = []resources.Difference{f.edit.difference(c)}
	}
	return st
}

// Apply edits the file as Check found it must, reading it again under
// this process's lock on the path, once no program has it open for
// writing, so an edit made meanwhile, here or by the host, is kept.
func (f *fileLine) Apply(ctx context.Context, req resources.Request) (_ resources.Change, err error) {
	defer textfile.Lock(f.path)()
	file, out, c, err := f.look(func() (*textfile.File, error) { return textfile.ReadSettled(ctx, safepath.Policy{}, f.path) })
	if err != nil {
		return resources.Change{}, err
	}
	defer func() { err = errors.Join(err, file.Close()) }()
	if !file.Exists {
		if f.edit.ensure == Absent {
			return resources.Change{}, nil
		}
		return resources.Change{}, fmt.Errorf("%s %w; file_line edits existing files: create it first, for example with a file resource with ensure: present and no content", f.path, ErrNoFile)
	}
	if c.kind == "" {
		return resources.Change{}, nil
	}
	if req.Noop {
		return resources.Change{Changed: true, NoopMessage: f.edit.noopMessage(c, f.path)}, nil
	}
	if err := file.Replace(ctx, textfile.Join(out), nil); err != nil {
		return resources.Change{}, err
	}
	return resources.Change{Changed: true}, nil
}
