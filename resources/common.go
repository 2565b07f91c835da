package resources

import "sort"

// Common declares the properties every resource takes besides its type's
// own. The graph consumes them (require and subscribe become edges,
// control a hook, alias a second reference, register_when_stable the
// vertex's registrations); they are declared here so the
// JSON Schema, `ccm ensure` and the ensure request offer them as they do
// the type's own. A property added to the graph's handling is added here.
type Common struct {
	Alias   string   `yaml:"alias" help:"another name for require and subscribe references (TYPE#ALIAS)"`
	Require []string `yaml:"require" help:"resources (TYPE#NAME) that must have converged first; this one is skipped when one of them failed"`
	// Subscribe is offered only by types that consume refreshes.
	Subscribe []string `yaml:"subscribe" help:"resources (TYPE#NAME) whose changes refresh this one; implies require" cli:"short=S"`
	Control   Control  `yaml:"control" help:"manage the resource only when if is true and unless is false"`
	Sensitive bool     `yaml:"sensitive" help:"hide the resource's content and resolved values in diffs, events, errors, status and --render"`
	// HealthChecks are read by the health package.
	HealthChecks []HealthCheckProps `yaml:"health_checks" help:"Nagios plugins or Goss rules saying whether what the resource manages works" cli:"one"`
	// Rollback is offered only by types whose changes can be undone.
	Rollback *bool `yaml:"rollback" help:"undo a change of this resource that makes a subscriber's health checks fail CRITICAL (default: ccm run --rollback)" cli:"-"`
	// RegisterWhenStable is read by the registration package.
	RegisterWhenStable []RegistrationProps `yaml:"register_when_stable" help:"service endpoints announced to the registry while the resource is stable: converged, its health checks OK (ccm run --register)" cli:"-"`
}

// RegistrationProps is one register_when_stable entry as written, as
// upstream CCM's registration docs write it. Templates in it are resolved
// when the manifest loads.
type RegistrationProps struct {
	Cluster     string            `yaml:"cluster" help:"the cluster: a letter, then letters, digits, _ and -"`
	Service     string            `yaml:"service" help:"the service name: a letter, then letters, digits, _ and -"`
	Protocol    string            `yaml:"protocol" help:"the protocol (http, tcp, ...): a letter, then letters, digits, _ and -"`
	Address     string            `yaml:"address" help:"the endpoint's IP address"`
	Port        *int              `yaml:"port" help:"the endpoint's port, 1 to 65535"`
	Priority    *int              `yaml:"priority" help:"1 to 255, lower is preferred"`
	TTL         string            `yaml:"ttl" help:"how long the entry lives unless published again (10m, 1h, never); default the stream's max age"`
	Annotations map[string]string `yaml:"annotations" help:"metadata published with the entry"`
}

// HealthCheckProps is one health_checks entry as written, as upstream
// CCM's monitoring docs write it.
type HealthCheckProps struct {
	Name      string         `yaml:"name" help:"how events name the check; default the plugin's base name" cli:"-"`
	Command   string         `yaml:"command" help:"a Nagios plugin and its arguments, run without a shell: exit 0 OK, 1 WARNING, 2 CRITICAL, other UNKNOWN" cli:"flag=check"`
	Format    string         `yaml:"format" help:"nagios or goss; inferred from command or goss_rules" enum:"nagios,goss" cli:"-"`
	GossRules map[string]any `yaml:"goss_rules" help:"Goss rules (service, port, process, file, http, command, ...); any failure is CRITICAL" cli:"-"`
	Timeout   string         `yaml:"timeout" help:"bounds each try (default 30s): a plugin's process group is stopped (SIGTERM, then SIGKILL after timeout_grace), a Goss rule set abandoned; either is UNKNOWN" cli:"flag=check-timeout"`
	// TimeoutGrace is ccm's own: upstream never stops a plugin.
	TimeoutGrace string `yaml:"timeout_grace" help:"after the timeout, how long a plugin's process group has to exit on SIGTERM before SIGKILL (default 5s)" cli:"-"`
	Tries        *int   `yaml:"tries" help:"tries until OK (default 1)" cli:"flag=check-tries"`
	TrySleep     string `yaml:"try_sleep" help:"wait between tries (default 1s)" cli:"flag=check-sleep"`
	Interval     string `yaml:"interval" help:"in watch mode, this check's own period instead of --health-interval" cli:"-"`
}

// Control is the common control property: expressions deciding before
// each run whether the resource is managed on this host.
type Control struct {
	If     string `yaml:"if" help:"expression: manage the resource only when it is true" cli:"flag=if"`
	Unless string `yaml:"unless" help:"expression: do not manage the resource when it is true" cli:"flag=unless"`
}

// CommonProperties lists the common properties resources of t take.
func (t Type) CommonProperties() []Property {
	return commonKeys{built: true, subscribes: t.Subscribes, undoable: t.Undoable}.properties()
}

// commonKeys says which common properties a type takes: Build records it
// in the Spec, so an unknown property's message can suggest and list them.
type commonKeys struct {
	// built is set by Type.Build; a spec made otherwise (a health check's
	// entry) takes none.
	built, subscribes, undoable bool
}

func (c commonKeys) properties() []Property {
	if !c.built {
		return nil
	}
	var out []Property
	for _, p := range PropertiesOf(Common{}) {
		if (p.Name == "subscribe" && !c.subscribes) || (p.Name == "rollback" && !c.undoable) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// names lists the common properties' names, sorted.
func (c commonKeys) names() []string {
	props := c.properties()
	out := make([]string, len(props))
	for i, p := range props {
		out[i] = p.Name
	}
	sort.Strings(out)
	return out
}
