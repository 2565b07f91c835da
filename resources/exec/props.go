package exec

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/resources"
)

// props are the exec resource's manifest properties. The deferred ones are
// kept as written and resolved just before each run.
type props struct {
	Ensure      string   `yaml:"ensure" help:"present, the only value" cli:"-"`
	Command     string   `yaml:"command" ccm:"deferred" help:"the command to run, when not the name"`
	Cwd         string   `yaml:"cwd" ccm:"deferred" help:"clean absolute working directory (default /)"`
	Environment []string `yaml:"environment" ccm:"deferred" help:"KEY=VALUE variables added to PATH, LANG and LC_ALL; nothing else is inherited" cli:"short=e"`
	Path        string   `yaml:"path" help:"colon-separated absolute directories where the program is looked up, and the child's PATH"`
	Returns     []int    `yaml:"returns" help:"exit codes that mean success (default 0)"`
	Timeout     string   `yaml:"timeout" help:"duration after which the command's process group is stopped (SIGTERM, then SIGKILL after timeout_grace), such as 30s or 5m" cli:"default=1m"`
	// TimeoutGrace is ccm's own: upstream never stops a command.
	TimeoutGrace string `yaml:"timeout_grace" help:"after the timeout, how long the command's process group has to exit on SIGTERM before SIGKILL (default 5s)"`
	Creates      string `yaml:"creates" ccm:"deferred" help:"clean absolute path; the command does not run while it exists"`
	OnlyIf       string `yaml:"onlyif" ccm:"deferred" help:"guard command: run only if it exits 0" cli:"flag=exec-if"`
	Unless       string `yaml:"unless" ccm:"deferred" help:"guard command: run only if it exits non-zero" cli:"flag=exec-unless"`
	RefreshOnly  bool   `yaml:"refreshonly" help:"run only when a subscribed resource changed" cli:"flag=refresh-only"`
	LogOutput    bool   `yaml:"logoutput" help:"log each line of the command's output"`
	Provider     string `yaml:"provider" help:"posix (no shell, the default) or shell (/bin/sh -c)" enum:"posix,shell"`
	// FollowSymlinks lists symlinks on the way to creates that may be
	// followed although someone other than root controls them.
	FollowSymlinks []string `yaml:"follow_symlinks" help:"symlinks on the way to creates that may be followed although a user other than root controls them"`
}

// validate reports the problems of the properties that are not deferred;
// deferred ones are checked by their deferred value, at build time when
// they hold no template.
func validate(spec *resources.Spec, p *props, errs *resources.ErrorList) {
	spec.CheckOneOf(errs, "ensure", p.Ensure, "present", "absent")
	spec.CheckProvider(errs, p.Provider, providers)
	if spec.Has("path") {
		if err := checkPath(p.Path); err != nil {
			errs.Addf(spec.KeyPos("path"), "path: %v", err)
		}
	}
	for i, code := range p.Returns {
		if code < 0 || code > 255 {
			errs.Addf(spec.KeyPos("returns"), "returns: item %d: %d is not an exit code (0 to 255)", i+1, code)
		}
	}
}

// checkPath accepts a colon-separated list of absolute directories.
func checkPath(path string) error {
	for dir := range strings.SplitSeq(path, ":") {
		if !filepath.IsAbs(dir) {
			return fmt.Errorf("%q: %w; path is a colon-separated list of absolute directories", dir, ErrNotAbsolute)
		}
	}
	return nil
}

func parseTimeout(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration such as 30s or 5m", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("%q must be positive", s)
	}
	return d, nil
}

var envKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func checkEnv(entry string) error {
	key, value, ok := strings.Cut(entry, "=")
	if !ok || !envKey.MatchString(key) || value == "" {
		return fmt.Errorf("%q is %w", entry, ErrBadEnvironment)
	}
	return nil
}

// checkCleanAbs accepts an absolute path written the one way the
// kernel resolves it, as file, archive and scaffold names are: a path
// with . or .. components may not be the one a reader of the manifest
// sees, and a marker or directory compared by its string must match.
// The error says how to write it only for a literal (literalHint): the
// clean form of a templated value would spell out what it resolved to.
func checkCleanAbs(path string) error {
	if !filepath.IsAbs(path) {
		return fmt.Errorf("%q is %w", path, ErrNotAbsolute)
	}
	if filepath.Clean(path) != path {
		return fmt.Errorf("%q is %w (no ., .., // or trailing /)", path, ErrNotClean)
	}
	return nil
}

// literalHint adds to a literal value's error how to write it right,
// when there is one way.
func literalHint(value string, err error) string {
	if errors.Is(err, ErrNotClean) {
		return fmt.Sprintf("%v: write %s", err, filepath.Clean(value))
	}
	return err.Error()
}
