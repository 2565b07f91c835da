package scaffold

import (
	"time"

	"github.com/reactive-ccm/ccm/resources"
)

func init() {
	resources.Register(resources.Type{Name: "scaffold", New: New})
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
	Ensure         string    `yaml:"ensure"`
	Provider       string    `yaml:"provider"`
	Source         string    `yaml:"source"`
	Engine         string    `yaml:"engine"`
	SkipEmpty      bool      `yaml:"skip_empty"`
	LeftDelimiter  string    `yaml:"left_delimiter"`
	RightDelimiter string    `yaml:"right_delimiter"`
	Purge          bool      `yaml:"purge"`
	Post           postRules `yaml:"post"`
	// Data, when set, replaces the manifest's data for this scaffold's
	// templates, as upstream CCM does.
	Data map[string]any `yaml:"data"`
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
}

var _ resources.Resource = (*scaffold)(nil)

// New builds a scaffold resource from its manifest properties. Every
// problem with them is reported at once.
func New(spec *resources.Spec) (resources.Instance, error) {
	var p props
	var errs resources.ErrorList
	errs.Add(spec.Pos, spec.Decode(&p))
	s := newScaffold(spec, p)
	s.validate(spec, &errs)
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
