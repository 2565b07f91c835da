package facts

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/graph/hiera"
)

// Options say where facts come from besides the host.
type Options struct {
	// Dirs are the overlay directories, in merge order; nil means
	// DefaultDirs(), an empty non-nil list none.
	Dirs []string
	// Files are --facts files, merged after the directories.
	Files []string
	// Set are --fact KEY=VALUE arguments, merged last.
	Set []string
	// Timeout bounds gathering the host's facts; zero is DefaultTimeout.
	Timeout time.Duration
}

func (o Options) dirs() []string {
	if o.Dirs == nil {
		return DefaultDirs()
	}
	return o.Dirs
}

// Gather returns the host's facts with their aliases, and the overlays
// merged on top. An unusable overlay or --fact is an error and no facts;
// a system section that failed is reported in warn while the facts are
// returned anyway, its section empty.
func Gather(ctx context.Context, o Options) (facts map[string]any, warn, err error) {
	sys, warn := System(ctx, o.Timeout)
	facts, err = Overlay(WithAliases(sys), o)
	return facts, warn, err
}

// Overlay merges o's overlays (directories, --facts files, --fact
// arguments, in that order) over base.
func Overlay(base map[string]any, o Options) (map[string]any, error) {
	ov, err := ReadOverlays(o)
	if err != nil {
		return nil, err
	}
	return ov.Over(base), nil
}

// Overlays are the overlays of some Options, read and checked, to merge
// over the host's facts once they are gathered.
type Overlays []map[string]any

// ReadOverlays reads o's overlays: directories, --facts files, --fact
// arguments, in merge order. Any unusable one is an error.
func ReadOverlays(o Options) (Overlays, error) {
	files, err := o.Paths()
	if err != nil {
		return nil, err
	}
	var errs []error
	var out Overlays
	for _, f := range files {
		m, err := ReadFile(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, m)
	}
	set, err := Set(o.Set)
	if err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return append(out, set), nil
}

// Over deep-merges the overlays over base, in order.
func (ov Overlays) Over(base map[string]any) map[string]any {
	out := base
	for _, m := range ov {
		out = hiera.Merge(out, m)
	}
	return out
}

// Paths lists the overlay files that exist now, in merge order, ending with
// the --facts files.
func (o Options) Paths() ([]string, error) {
	var out []string
	for _, d := range o.dirs() {
		files, err := dirFiles(d)
		if err != nil {
			return nil, err
		}
		out = append(out, files...)
	}
	return append(out, o.Files...), nil
}

// WatchPaths lists what watch mode must watch to see overlays change:
// every possible overlay file, existing or not, with the --facts files,
// and the facts.d directories, whose files come and go.
func (o Options) WatchPaths() (files, dirs []string) {
	for _, d := range o.dirs() {
		for _, ext := range overlayExts {
			files = append(files, filepath.Join(d, "facts"+ext))
		}
		dirs = append(dirs, filepath.Join(d, "facts.d"))
	}
	return append(files, o.Files...), dirs
}

// aliases maps each top-level alias to the path of the fact it copies.
var aliases = map[string]string{
	"hostname":        "host.info.hostname",
	"os":              "host.info.os",
	"platform":        "host.info.platform",
	"platformFamily":  "host.info.platformFamily",
	"platformVersion": "host.info.platformVersion",
	"kernelVersion":   "host.info.kernelVersion",
	"kernelArch":      "host.info.kernelArch",
	"default_ipv4":    "network.default_ipv4",
	"default_ipv6":    "network.default_ipv6",
}

// WithAliases returns facts with the top-level aliases added.
func WithAliases(facts map[string]any) map[string]any {
	out := make(map[string]any, len(facts)+len(aliases))
	maps.Copy(out, facts)
	for alias, path := range aliases {
		if v, ok := hiera.At(facts, strings.Split(path, ".")); ok {
			out[alias] = v
		}
	}
	return out
}

// Layered is what `ccm hiera` resolves against: sys (the host's facts;
// nil leaves them and the facts.d directories out), then env's variables
// as facts, then the facts file (when named), then set's KEY=VALUE
// facts, each over the ones before.
func Layered(sys map[string]any, env map[string]string, file string, set []string) (map[string]any, error) {
	base := map[string]any{}
	o := Options{Set: set, Dirs: []string{}}
	if sys != nil {
		base, o.Dirs = sys, nil
	}
	if len(env) > 0 {
		vars := make(map[string]any, len(env))
		for k, v := range env {
			vars[k] = v
		}
		base = hiera.Merge(base, vars)
	}
	if file != "" {
		o.Files = []string{file}
	}
	return Overlay(base, o)
}
