package file

import (
	"path/filepath"

	"github.com/reactive-ccm/ccm/resources"
)

// Ensure values of the file resource.
const (
	Present   = "present"
	Absent    = "absent"
	Directory = "directory"
)

// props are the file resource's manifest properties.
type props struct {
	Ensure string `yaml:"ensure" help:"present (a regular file), directory or absent" enum:"present,absent,directory" cli:"arg=1,default=present"`
	// Content and Source are resolved just before use, so they may refer to
	// values known only at run time.
	Content  string `yaml:"content" ccm:"deferred" help:"the file's content; templates are resolved just before writing" cli:"alias=contents,file=content-file,filealias=contents-file"`
	Source   string `yaml:"source" ccm:"deferred" help:"a local file copied verbatim, relative to the manifest's directory"`
	Owner    string `yaml:"owner" help:"owner: a user name or numeric id (on the command line USER:GROUP sets the group too)" cli:"default=@user,split=group"`
	Group    string `yaml:"group" help:"group: a group name or numeric id" cli:"default=@group"`
	Mode     Mode   `yaml:"mode" help:"octal permission mode, at most 0777; a directory also gets x wherever r or w is set" cli:"default=0644"`
	Force    bool   `yaml:"force" help:"with ensure absent: remove a non-empty directory with its contents"`
	Validate string `yaml:"validate" help:"a command checking new content before it replaces the file, %s standing for the temporary file (nginx -t -c %s); a non-zero exit keeps the old file"`
	Provider string `yaml:"provider" help:"the provider: posix" enum:"posix"`
	// FollowSymlinks lists symlinks on the way to the path that may be
	// followed although someone other than root controls them.
	FollowSymlinks []string `yaml:"follow_symlinks" help:"symlinks on the way to the path (or the source) that may be followed although a user other than root controls them"`
}

// validate reports every problem with the properties. Presence is asked of
// the spec, not of zero values, so a property that failed to decode is not
// also reported as missing.
func validate(spec *resources.Spec, p *props, errs *resources.ErrorList) {
	validatePath(spec, errs)
	if !spec.Has("ensure") {
		errs.Addf(spec.Pos, "%s: ensure is required: present, absent or directory", spec.ID())
	}
	spec.CheckOneOf(errs, "ensure", p.Ensure, Present, Absent, Directory)
	validateContent(spec, p, errs)
	if p.Ensure != Absent {
		for _, key := range []string{"owner", "group", "mode"} {
			if !spec.Has(key) {
				errs.Addf(spec.Pos, "%s: %s is required unless ensure is absent", spec.ID(), key)
			}
		}
	}
	if p.Force && p.Ensure != Absent {
		errs.Addf(spec.KeyPos("force"), "force: only valid with ensure: absent")
	}
	spec.CheckProvider(errs, p.Provider, providers)
}

func validatePath(spec *resources.Spec, errs *resources.ErrorList) {
	switch {
	case !filepath.IsAbs(spec.Name):
		errs.Addf(spec.Pos, "%s: the path must be absolute", spec.ID())
	case spec.Name == "/":
		errs.Addf(spec.Pos, "%s: / has no parent directory to manage it in", spec.ID())
	case filepath.Clean(spec.Name) != spec.Name:
		errs.Addf(spec.Pos, "%s: the path must be clean (no ., .., // or trailing /): write %s", spec.ID(), filepath.Clean(spec.Name))
	}
}

func validateContent(spec *resources.Spec, p *props, errs *resources.ErrorList) {
	if spec.Has("content") && spec.Has("source") {
		errs.Addf(spec.KeyPos("source"), "source: content and source cannot both be set")
	}
	if p.Ensure == Absent || p.Ensure == Directory {
		spec.CheckOnlyWith(errs, "ensure: present", "content", "source")
	}
	if !spec.Has("content") && !spec.Has("source") {
		spec.CheckOnlyWith(errs, "content or source", "validate")
	}
	if spec.Has("source") && p.Source == "" {
		errs.Addf(spec.KeyPos("source"), "source: must not be empty")
	}
}
