package service

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
)

const (
	running = "running"
	stopped = "stopped"
)

// props are the service's manifest properties.
type props struct {
	Ensure   string `yaml:"ensure" help:"running (the default) or stopped" enum:"running,stopped" cli:"arg=1,default=running"`
	Enable   *bool  `yaml:"enable" help:"start at boot (true) or not (false); unset leaves it alone" cli:"negate=disable"`
	Provider string `yaml:"provider" help:"the provider: systemd" enum:"systemd"`
}

// validName is the CCM service (and package) name rule: nothing a shell
// or a path would interpret.
var validName = regexp.MustCompile(`^[a-zA-Z0-9._+:~-]+$`)

// checkName says why name is not a service's name, for a manifest and for
// `ccm status`.
func checkName(name string) error {
	if !validName.MatchString(name) {
		return fmt.Errorf("invalid service name %q: only letters, digits and . _ + : ~ - are allowed", name)
	}
	return nil
}

func (p *props) validate(spec *resources.Spec, errs *resources.ErrorList) {
	if err := checkName(spec.Name); err != nil {
		errs.Addf(spec.Pos, "%s: %v", spec.ID(), err)
	}
	switch p.Ensure {
	case "":
		p.Ensure = running
	case running, stopped:
	default:
		errs.Addf(spec.KeyPos("ensure"), "%s: ensure: must be running or stopped, got %q", spec.ID(), p.Ensure)
	}
}

// unitTypes are the suffixes systemd recognises on unit names.
var unitTypes = []string{".service", ".socket", ".target", ".device", ".mount", ".automount",
	".swap", ".timer", ".path", ".slice", ".scope"}

// unitName is the systemd unit a service name means: as systemctl does,
// a name without a unit type suffix is a service.
func unitName(name string) string {
	for _, suffix := range unitTypes {
		if strings.HasSuffix(name, suffix) {
			return name
		}
	}
	return name + ".service"
}
