package scaffold

import (
	"path/filepath"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
)

// systemDirs are targets a purging scaffold refuses: purge deletes every
// file the templates do not produce, so it needs a directory of its own.
var systemDirs = map[string]bool{
	"/": true, "/bin": true, "/boot": true, "/dev": true, "/etc": true, "/home": true,
	"/lib": true, "/lib32": true, "/lib64": true, "/libx32": true, "/media": true,
	"/mnt": true, "/opt": true, "/proc": true, "/root": true, "/run": true, "/sbin": true,
	"/srv": true, "/sys": true, "/tmp": true, "/usr": true, "/var": true,
	"/usr/bin": true, "/usr/include": true, "/usr/lib": true, "/usr/libexec": true,
	"/usr/local": true, "/usr/local/bin": true, "/usr/local/etc": true, "/usr/local/lib": true,
	"/usr/local/sbin": true, "/usr/sbin": true, "/usr/share": true, "/usr/src": true,
	"/var/cache": true, "/var/lib": true, "/var/log": true, "/var/mail": true,
	"/var/opt": true, "/var/spool": true, "/var/tmp": true,
}

func (s *scaffold) validate(spec *resources.Spec, errs *resources.ErrorList) {
	addf := func(key, format string, args ...any) { errs.Addf(spec.KeyPos(key), format, args...) }
	p := s.p
	if !filepath.IsAbs(s.target) || filepath.Clean(s.target) != s.target {
		errs.Addf(spec.Pos, "%s: the target must be a clean absolute path, like %s", spec.ID(), filepath.Clean("/"+s.target))
	}
	if p.Ensure != ensurePresent && p.Ensure != ensureAbsent {
		addf("ensure", "ensure must be %q or %q, not %q", ensurePresent, ensureAbsent, p.Ensure)
	}
	if err := resources.KnownProvider(p.Provider, []resources.Provider{{Name: providerChoria}}); err != nil {
		addf("provider", "provider: %v", err)
	}
	if p.Engine != engineGo && p.Engine != engineJet {
		addf("engine", "engine must be %q or %q, not %q", engineGo, engineJet, p.Engine)
	}
	if (p.LeftDelimiter == "") != (p.RightDelimiter == "") {
		addf("left_delimiter", "left_delimiter and right_delimiter must be set together")
	}
	switch {
	case p.Source == "":
		addf("source", "source is required: the directory of templates")
	case strings.Contains(p.Source, "://"):
		addf("source", "source must be a directory; URL sources are not supported")
	case within(s.target, s.source):
		addf("source", "the target %s is inside the source %s: each render would become a template of the next", s.target, s.source)
	case p.Purge && within(s.source, s.target):
		addf("source", "the source %s is inside the target %s, so purge would delete the templates", s.source, s.target)
	}
	if p.Purge && systemDirs[s.target] {
		addf("purge", "purge would delete every file under %s that the templates do not produce; give the scaffold a directory of its own", s.target)
	}
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
