package pkg

import (
	"regexp"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

// The ensure values with a meaning of their own; anything else is a version.
const (
	ensurePresent = "present"
	ensureAbsent  = "absent"
	ensureLatest  = manager.Latest
)

// properties are the package resource's own keys; the name is the
// resource's name.
type properties struct {
	Ensure   string `yaml:"ensure" help:"present, absent, latest or a version" cli:"arg=1,default=present"`
	Provider string `yaml:"provider" help:"apt or dnf; chosen automatically" enum:"apt,dnf"`
}

var (
	// nameRE admits package names of apt and dnf, optionally with an
	// architecture ("libc6:i386"), and nothing a shell or an option parser
	// would act on: no spaces, quotes, metacharacters, slashes or leading
	// hyphen.
	nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+:~-]*$`)
	// versionRE admits Debian and rpm versions ("2:9.1.1230-2",
	// "1.0~rc1", "5.8-9.el9", "1.0^git20240101").
	versionRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+:~^-]*$`)
)

// validate checks the name, and the ensure and provider values when they
// decoded, adding every problem to errs.
func validate(spec *resources.Spec, p properties, decoded bool, errs *resources.ErrorList) {
	if !nameRE.MatchString(spec.Name) {
		errs.Addf(spec.Pos, "%s: the package name %q may hold only letters, digits and . _ + : ~ - and must start with a letter or digit (no spaces, quotes, slashes or shell metacharacters)", spec.ID(), spec.Name)
	}
	if !decoded {
		return
	}
	switch {
	case !spec.Has("ensure"):
		errs.Addf(spec.Pos, "%s: ensure is required: present, absent, latest or a version", spec.ID())
	case p.Ensure == ensurePresent || p.Ensure == ensureAbsent || p.Ensure == ensureLatest:
	case !versionRE.MatchString(p.Ensure):
		errs.Addf(spec.KeyPos("ensure"), "%s: ensure %q is not present, absent, latest or a version: a version may hold only letters, digits and . _ + : ~ ^ - and must start with a letter or digit", spec.ID(), p.Ensure)
	}
	if err := resources.KnownProvider(p.Provider, descriptors()); err != nil {
		errs.Addf(spec.KeyPos("provider"), "%s: %v", spec.ID(), err)
	}
}
