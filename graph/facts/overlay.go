package facts

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/reactive-ccm/ccm/graph/hiera"
	"github.com/reactive-ccm/ccm/graph/internal/yamlmerge"
	"github.com/reactive-ccm/ccm/resources/document"
	"github.com/reactive-ccm/ccm/resources/template"
	"go.yaml.in/yaml/v3"
)

// SystemDir is the system-wide overlay directory.
const SystemDir = "/etc/choria/ccm"

// DefaultDirs returns the overlay directories: SystemDir, then
// $XDG_CONFIG_HOME/choria/ccm (~/.config/choria/ccm when unset).
func DefaultDirs() []string {
	dirs := []string{SystemDir}
	cfg := os.Getenv("XDG_CONFIG_HOME")
	if cfg == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return dirs
		}
		cfg = filepath.Join(home, ".config")
	}
	if user := filepath.Join(cfg, "choria", "ccm"); user != SystemDir {
		dirs = append(dirs, user)
	}
	return dirs
}

// overlayExts are the extensions of facts files; JSON is read by the YAML
// parser, which gives positions in errors.
var overlayExts = []string{".json", ".yaml", ".yml"}

// dirFiles lists the overlay files of dir in merge order: facts.json,
// facts.yaml, facts.yml, then facts.d's files by name. Missing files and
// directories are skipped; hidden files and subdirectories of facts.d too.
func dirFiles(dir string) ([]string, error) {
	var out []string
	for _, ext := range overlayExts {
		p := filepath.Join(dir, "facts"+ext)
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	entries, err := os.ReadDir(filepath.Join(dir, "facts.d"))
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("facts: %w", err)
	}
	var names []string
	for _, e := range entries {
		if isOverlayName(e.Name()) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, n := range names {
		p := filepath.Join(dir, "facts.d", n)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	return out, nil
}

func isOverlayName(name string) bool {
	if strings.HasPrefix(name, ".") {
		return false
	}
	for _, ext := range overlayExts {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// ReadFile reads a facts file, JSON or YAML, whose top level is a map.
func ReadFile(file string) (map[string]any, error) {
	b, err := document.Read(file)
	if err != nil {
		return nil, fmt.Errorf("facts: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("facts: %s: invalid JSON or YAML: %w", file, err)
	}
	if err := yamlmerge.Expand(file, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return map[string]any{}, nil
	}
	v, err := hiera.Value(file, &doc, nil)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrNotMap, file)
	}
	return m, nil
}

// Set parses --fact KEY=VALUE arguments into facts; a dotted KEY such as
// os.family sets a nested fact. Values stay strings, as upstream's do.
func Set(pairs []string) (map[string]any, error) {
	out := map[string]any{}
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("%w, got %q", ErrBadFact, p)
		}
		parts := strings.Split(k, ".")
		leaf := map[string]any{parts[len(parts)-1]: v}
		for i := len(parts) - 2; i >= 0; i-- {
			leaf = map[string]any{parts[i]: leaf}
		}
		out = hiera.Merge(out, leaf)
	}
	return out, nil
}

// MergeOver deep-merges the map in file (when named), then each
// KEY=VALUE of set (as Set parses them), over data: `ccm hiera parse
// --data-file FILE --data KEY=VALUE`.
func MergeOver(data map[string]any, file string, set []string) (map[string]any, error) {
	if file != "" {
		over, err := ReadFile(file)
		if err != nil {
			return nil, err
		}
		data = hiera.Merge(data, over)
	}
	values, err := Set(set)
	if err != nil {
		return nil, fmt.Errorf("--data: %w", err)
	}
	return hiera.Merge(data, values), nil
}

// ResolveHiera is `ccm hiera parse`: src resolved against facts and
// environ (hiera.Resolve), then the map in dataFile and set's KEY=VALUE
// merged over the result (MergeOver).
func ResolveHiera(src hiera.Source, facts map[string]any, environ map[string]string, dataFile string, set []string) (map[string]any, error) {
	data, err := hiera.Resolve(template.NewData(template.Env{Facts: facts, Environ: environ}), src)
	if err != nil {
		return nil, err
	}
	return MergeOver(data, dataFile, set)
}
