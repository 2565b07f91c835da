package file

import (
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	validatecmd "github.com/reactive-ccm/ccm/resources/internal/validate"
)

// providers are the ways of managing files; posix is the only one.
var providers = []resources.Provider{{Name: "posix", Priority: 1, Usable: resources.Always}}

func init() {
	resources.Register(resources.Type{Name: "file", Undoable: true, New: New, Props: props{}, Inspect: inspect,
		Help: "Manage a file or directory: existence, content, owner, group and mode", NameHelp: "the absolute path of the file",
		Timeout: time.Minute})
}

// file is one managed path. Its fields are fixed at build time; the only
// state it keeps between calls is the digest cache of its content.
type file struct {
	path   string
	ensure string
	owner  string
	group  string
	// mode is the wanted mode, already widened for directories.
	mode  Mode
	force bool
	// links says which symlinks on the way to the path (and the source)
	// may be followed besides root's own.
	links safepath.Policy
	// content is nil when the content is not managed: absent, directory,
	// or a present file with neither content nor source.
	content content
	// validate, when set, checks new content before it replaces the file.
	validate *validatecmd.Command
	// mine is the file last written, for the check after the write.
	mine written
	// sensitive hides the content whole in reports, digest included.
	sensitive bool
}

var (
	_ resources.Resource       = (*file)(nil)
	_ resources.Undoable       = (*file)(nil)
	_ resources.GroupCommitter = (*file)(nil)
)

// New builds a file resource from its manifest properties.
func New(spec *resources.Spec) (resources.Instance, error) {
	p, errs := resources.DecodeProps[props](spec)
	validate(spec, p, errs)
	links, err := safepath.Allow(p.FollowSymlinks...)
	if err != nil {
		errs.Addf(spec.KeyPos("follow_symlinks"), "follow_symlinks: %v", err)
	}
	if err := errs.Err(); err != nil {
		return resources.Instance{}, err
	}
	provider, err := resources.SelectProvider(p.Provider, providers)
	if err != nil {
		return resources.Instance{}, resources.Errorf(spec.KeyPos("provider"), "provider: %v", err)
	}
	f := &file{
		path: spec.Name, ensure: p.Ensure,
		owner: p.Owner, group: p.Group, mode: p.Mode, force: p.Force, links: links,
		sensitive: spec.Secrets != nil,
	}
	switch {
	case p.Ensure == Directory:
		f.mode = p.Mode.dir()
	case spec.Has("content"):
		f.content = &inline{text: spec.Defer("content", p.Content)}
	case spec.Has("source"):
		f.content = &source{path: spec.Defer("source", p.Source).WithCheck(notEmpty), dir: spec.Dir}
	}
	if spec.Has("validate") {
		v, err := validatecmd.Parse(p.Validate)
		if err != nil {
			return resources.Instance{}, resources.Errorf(spec.KeyPos("validate"), "validate: %v", err)
		}
		if f.sensitive {
			v = v.Quiet()
		}
		f.validate = &v
	}
	// A source managed by another resource is ordered before this one.
	uses := []string{f.path}
	if f.content != nil {
		uses = append(uses, f.content.watch()...)
	}
	inst := resources.Instance{
		Resource: f, Provider: provider, Ensure: p.Ensure, Uses: uses,
		Independent: f.content == nil || !f.content.readsFiles(),
	}
	if p.Ensure != Absent {
		inst.Owns = []string{f.path}
	}
	if what := claimed(spec, p.Ensure); what != "" {
		inst.Claims = []resources.Claim{{Path: f.path, Whole: true, What: what}}
	}
	return inst, nil
}

// claimed says how the resource decides its path's whole content, or ""
// when it leaves the content alone (ensure: present without content or
// source), so that resources editing lines of the file may share it.
func claimed(spec *resources.Spec, ensure string) string {
	switch {
	case ensure != Present:
		return "ensure: " + ensure
	case spec.Has("content"):
		return "content"
	case spec.Has("source"):
		return "source"
	}
	return ""
}

// Watch asks for events on the path itself and, for source, on the source
// file, so an edited source is copied again: a new desired state.
func (f *file) Watch() resources.WatchSpec {
	spec := resources.WatchSpec{Paths: []string{f.path}}
	if f.content != nil {
		spec.Inputs = f.content.watch()
	}
	return spec
}

// GroupCommit is true for a file whose content is written: a directory or
// an absent file writes nothing to share a sync for, and a validate
// command is a program, which a group would run hundreds at once.
func (f *file) GroupCommit() bool { return f.ensure == Present && f.validate == nil }
