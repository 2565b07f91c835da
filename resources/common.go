package resources

// Common declares the properties every resource takes besides its type's
// own. The graph consumes them (require and subscribe become edges,
// control a hook, alias a second reference); they are declared here so the
// JSON Schema, `ccm ensure` and the ensure request offer them as they do
// the type's own. A property added to the graph's handling is added here.
type Common struct {
	Alias   string   `yaml:"alias" help:"another name for require and subscribe references (TYPE#ALIAS)"`
	Require []string `yaml:"require" help:"resources (TYPE#NAME) that must have converged first; this one is skipped when one of them failed" cli:"short=R"`
	// Subscribe is offered only by types that consume refreshes.
	Subscribe []string `yaml:"subscribe" help:"resources (TYPE#NAME) whose changes refresh this one; implies require" cli:"short=S"`
	Control   Control  `yaml:"control" help:"manage the resource only when if is true and unless is false"`
}

// Control is the common control property: expressions deciding before
// each run whether the resource is managed on this host.
type Control struct {
	If     string `yaml:"if" help:"expression: manage the resource only when it is true" cli:"flag=if"`
	Unless string `yaml:"unless" help:"expression: do not manage the resource when it is true" cli:"flag=unless"`
}

// CommonProperties lists the common properties resources of t take.
func (t Type) CommonProperties() []Property {
	var out []Property
	for _, p := range PropertiesOf(Common{}) {
		if p.Name == "subscribe" && !t.Subscribes {
			continue
		}
		out = append(out, p)
	}
	return out
}
