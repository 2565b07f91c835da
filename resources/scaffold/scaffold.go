package scaffold

import (
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
)

func init() {
	resources.Register(resources.Type{Name: "scaffold", Undoable: true, New: New, Props: props{},
		Help: "Render a directory of templates into a target directory", NameHelp: "the absolute path of the target directory",
		Timeout: 2 * time.Minute})
}

const (
	ensurePresent  = "present"
	ensureAbsent   = "absent"
	engineGo       = "go"
	engineJet      = "jet"
	providerChoria = "choria"

	// postTimeout bounds each post command; on expiry its process group
	// is killed.
	postTimeout = time.Minute
)

// props are the scaffold's manifest properties.
type props struct {
	Ensure         string        `yaml:"ensure" help:"present (the default) or absent" enum:"present,absent" cli:"arg=2,default=present"`
	Provider       string        `yaml:"provider" help:"the provider: choria" enum:"choria"`
	Source         string        `yaml:"source" help:"template directory, relative to the manifest's directory" cli:"arg=1"`
	Engine         string        `yaml:"engine" help:"jet (the default, [[ ]]) or go ({{ }})" enum:"go,jet"`
	SkipEmpty      bool          `yaml:"skip_empty" help:"do not create files that render to whitespace only"`
	LeftDelimiter  string        `yaml:"left_delimiter" help:"custom left template delimiter"`
	RightDelimiter string        `yaml:"right_delimiter" help:"custom right template delimiter"`
	Purge          bool          `yaml:"purge" help:"delete files in the target the templates do not produce"`
	Validate       validateRules `yaml:"validate" help:"GLOB: COMMAND pairs checking each rendered file whose base name matches before anything is written, %s standing for the file; a non-zero exit writes nothing" cli:"sep=="`
	Post           postRules     `yaml:"post" help:"GLOB: COMMAND pairs run in order on each rendered file whose base name matches; {} is the file's path" cli:"sep=="`
	// Data, when set, replaces the manifest's data for this scaffold's
	// templates, as upstream CCM does.
	Data map[string]any `yaml:"data" help:"data replacing the manifest's for these templates" cli:"-"`
	// FollowSymlinks lists symlinks on the way to the target or the source
	// that may be followed although someone other than root controls them.
	FollowSymlinks []string `yaml:"follow_symlinks" help:"symlinks on the way to the target or the source that may be followed although a user other than root controls them"`
}

// scaffold is one scaffold resource. Its fields are fixed after New.
type scaffold struct {
	target string
	// source is absolute: a relative source was joined to the manifest's
	// directory.
	source string
	p      props
	// dir is the manifest's directory, where post commands run.
	dir  string
	tmpl resources.Templates
	// postTimeout is a field so tests can shorten it.
	postTimeout time.Duration
	// links says which symlinks on the way to the target and the source
	// may be followed besides root's own. Below the target none is.
	links safepath.Policy
}

var _ resources.Resource = (*scaffold)(nil)

// New builds a scaffold resource from its manifest properties. Every
// problem with them is reported at once.
func New(spec *resources.Spec) (resources.Instance, error) {
	p, errs := resources.DecodeProps[props](spec)
	s := newScaffold(spec, *p)
	s.validate(spec, errs)
	var err error
	if s.links, err = safepath.Allow(p.FollowSymlinks...); err != nil {
		errs.Addf(spec.KeyPos("follow_symlinks"), "follow_symlinks: %v", err)
	}
	if err := errs.Err(); err != nil {
		return resources.Instance{}, err
	}
	return resources.Instance{
		Resource: s,
		Provider: providerChoria,
		Ensure:   s.p.Ensure,
		// The target tree is the scaffold's: resources under it wait.
		Owns: []string{s.target},
		// The target's parent must exist first, and the source may be
		// produced by another resource (an extracted archive).
		Uses: []string{s.target, s.source},
	}, nil
}

// newScaffold applies the defaults.
func newScaffold(spec *resources.Spec, p props) *scaffold {
	if p.Ensure == "" {
		p.Ensure = ensurePresent
	}
	if p.Engine == "" {
		p.Engine = engineJet
	}
	// Jet's own default is {{ }}; CCM's jet scaffolds use [[ ]], which
	// leaves the braces of YAML, JSON and unit files alone.
	if p.Engine == engineJet && p.LeftDelimiter == "" && p.RightDelimiter == "" {
		p.LeftDelimiter, p.RightDelimiter = "[[", "]]"
	}
	return &scaffold{
		target: spec.Name, source: spec.Path(p.Source), p: p,
		dir: spec.Dir, tmpl: spec.Templates, postTimeout: postTimeout,
	}
}
