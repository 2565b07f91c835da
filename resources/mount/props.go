package mount

import (
	"path/filepath"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
)

// Ensure values of the mount resource.
const (
	Mounted   = "mounted"
	Unmounted = "unmounted"
	Absent    = "absent"
)

// props are the mount resource's manifest properties.
type props struct {
	Ensure  string   `yaml:"ensure" help:"mounted (the default), unmounted, or absent (unmounted and, with persist, out of /etc/fstab)" enum:"mounted,unmounted,absent" cli:"arg=1,default=mounted"`
	Device  string   `yaml:"device" help:"what to mount: a block device (/dev/sdb1), UUID=..., LABEL=..., or the source of another filesystem (tmpfs, server:/export)"`
	FSType  string   `yaml:"fstype" help:"the filesystem type: ext4, xfs, tmpfs, nfs, ..."`
	Options []string `yaml:"options" help:"mount options (ro, noexec, size=1g, ...); none means the defaults"`
	Persist bool     `yaml:"persist" help:"also keep the mount's line in /etc/fstab, so it is mounted at boot (ensure absent removes it)"`
}

// validate reports every problem with the properties.
func validate(spec *resources.Spec, p *props, errs *resources.ErrorList) string {
	ensure := Mounted
	if spec.Has("ensure") {
		ensure = p.Ensure
	}
	spec.CheckOneOf(errs, "ensure", p.Ensure, Mounted, Unmounted, Absent)
	switch {
	case !filepath.IsAbs(spec.Name) || spec.Name == "/":
		errs.Addf(spec.Pos, "%s: the mount point must be an absolute path other than /", spec.ID())
	case filepath.Clean(spec.Name) != spec.Name:
		errs.Addf(spec.Pos, "%s: the mount point must be clean (no ., .., // or trailing /): write %s", spec.ID(), filepath.Clean(spec.Name))
	case strings.ContainsAny(spec.Name, "\n\t"):
		errs.Addf(spec.Pos, "%s: the mount point must not hold a tab or a newline", spec.ID())
	}
	needed := ensure == Mounted || ensure == Unmounted && p.Persist
	for _, k := range []struct{ key, value string }{{"device", p.Device}, {"fstype", p.FSType}} {
		switch {
		case needed && k.value == "":
			errs.Addf(spec.Pos, "%s: %s is required with ensure: %s", spec.ID(), k.key, ensure)
		case strings.ContainsAny(k.value, " \t\n"):
			errs.Addf(spec.KeyPos(k.key), "%s: must not hold spaces", k.key)
		}
	}
	for i, o := range p.Options {
		if o == "" || strings.ContainsAny(o, " \t\n,") {
			errs.Addf(spec.KeyPos("options"), "options: item %d, %q, is not one option (one per item, no commas or spaces)", i+1, o)
		}
		if o == "remount" || o == "bind" || o == "rbind" || o == "move" || o == "loop" {
			errs.Addf(spec.KeyPos("options"), "options: %s is not supported: mount the device itself", o)
		}
	}
	return ensure
}
