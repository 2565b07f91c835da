package apply

import (
	"context"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
)

func init() {
	resources.Register(resources.Type{Name: "apply", New: New, Props: props{}, ManifestOnly: true,
		Help: "Apply another manifest in this one's place", NameHelp: "the child manifest's path, relative to this manifest's directory"})
}

// provider names the only way of applying a manifest, as upstream's.
const provider = "ccmmanifest"

// props are the apply resource's manifest properties.
type props struct {
	Ensure      string         `yaml:"ensure" help:"present, the only value" enum:"present"`
	Noop        bool           `yaml:"noop" help:"run the child manifest in noop; a parent in noop runs it in noop anyway"`
	HealthCheck bool           `yaml:"health_check_only" help:"run only the child manifest's health checks; a parent doing so makes its children do so anyway"`
	AllowApply  *bool          `yaml:"allow_apply" help:"let the child manifest apply other manifests (default true)"`
	Data        map[string]any `yaml:"data" help:"data merged over the child manifest's resolved data"`
	Provider    string         `yaml:"provider" help:"the provider: ccmmanifest" enum:"ccmmanifest"`
}

// New builds an apply resource; the graph reads its child manifest.
func New(spec *resources.Spec) (resources.Instance, error) {
	p, errs := resources.DecodeProps[props](spec)
	if p.Ensure != "" && p.Ensure != "present" {
		errs.Addf(spec.KeyPos("ensure"), "%s: ensure: %q is not supported; apply only has ensure: present", spec.ID(), p.Ensure)
	}
	if p.Provider != "" && p.Provider != provider {
		errs.Addf(spec.KeyPos("provider"), "%s: provider: unknown provider %q; valid providers: %s", spec.ID(), p.Provider, provider)
	}
	if strings.Contains(spec.Name, "://") {
		errs.Addf(spec.Pos, "%s: the child manifest must be a local file, not a URL", spec.ID())
	}
	if err := errs.Err(); err != nil {
		return resources.Instance{}, err
	}
	return resources.Instance{
		Resource: child{},
		Provider: provider,
		Ensure:   "present",
		Include: &resources.Include{File: spec.Path(spec.Name), Noop: p.Noop, HealthCheckOnly: p.HealthCheck,
			Nested: p.AllowApply == nil || *p.AllowApply, Data: p.Data},
	}, nil
}

// child is the apply resource's vertex: it has no state of its own. The
// graph makes it subscribe to every resource of the child manifest, so a
// change there reaches it as a refresh, which it reports as its change,
// and a failure there blocks it.
type child struct{}

var _ resources.Resource = child{}

func (child) Watch() resources.WatchSpec { return resources.WatchSpec{} }

func (child) Check(context.Context) (resources.Status, error) {
	return resources.Status{Ensure: "present", Desired: true}, nil
}

// Apply runs only on a refresh: a child resource changed.
func (child) Apply(_ context.Context, req resources.Request) (resources.Change, error) {
	c := resources.Change{Changed: true}
	if req.Noop {
		c.NoopMessage = "Would have changed resources of the child manifest"
	}
	return c, nil
}
