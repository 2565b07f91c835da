package scaffold

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/template"
	"unicode"

	"github.com/CloudyKit/jet/v6"
	lib "github.com/choria-io/scaffold"
)

// rendering is the source rendered into a private temporary directory,
// post commands applied. Close removes it.
type rendering struct {
	tmp string
	// root holds the rendered tree.
	root string
	// files maps each rendered file's path relative to root to its
	// mode and size.
	files map[string]fs.FileInfo
	// dirs lists the rendered directories relative to root, parents first.
	dirs []string
}

func (r *rendering) Close() error { return os.RemoveAll(r.tmp) }

// closeRendering removes r, if any, reporting a failure through err
// unless err already holds one.
func closeRendering(r *rendering, err *error) {
	if r == nil {
		return
	}
	if cerr := r.Close(); cerr != nil && *err == nil {
		*err = fmt.Errorf("removing the rendering: %w", cerr)
	}
}

// sorted lists the rendered files in order.
func (r *rendering) sorted() []string {
	return slices.Sorted(maps.Keys(r.files))
}

// path returns where the rendered file rel is.
func (r *rendering) path(rel string) string { return filepath.Join(r.root, rel) }

// render renders the source with a Scaffold made for this call alone (a
// Scaffold is not safe for concurrent use) and runs the post commands.
func (s *scaffold) render(ctx context.Context) (*rendering, error) {
	if ok, err := isDir(s.source); !ok {
		if err == nil {
			err = fmt.Errorf("the source %s does not exist", s.source)
		}
		return nil, fmt.Errorf("%w: %w", ErrRender, err)
	}
	tmp, err := os.MkdirTemp("", "ccm-scaffold-")
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRender, err)
	}
	r := &rendering{tmp: tmp, root: filepath.Join(tmp, "out")}
	if within(tmp, s.target) || within(tmp, s.source) {
		err = fmt.Errorf("%w: the temporary directory %s is inside the scaffold's target or source; set TMPDIR elsewhere", ErrRender, os.TempDir())
	} else {
		err = s.renderInto(ctx, r)
	}
	if err != nil {
		return nil, errors.Join(err, r.Close())
	}
	return r, nil
}

func (s *scaffold) renderInto(ctx context.Context, r *rendering) error {
	sc, err := s.newLib(r.root)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrRender, s.source, err)
	}
	if _, err := sc.Render(s.data()); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrRender, s.source, err)
	}
	if err := r.scan(); err != nil {
		return err
	}
	if len(s.p.Post) == 0 {
		return nil
	}
	if err := s.runPost(ctx, r.root, r.sorted()); err != nil {
		return err
	}
	// A post command may change a file's mode, or add and remove files.
	return r.scan()
}

// newLib configures the library for one render into root. Post commands
// are not given to it: runPost runs them under a timeout.
func (s *scaffold) newLib(root string) (*lib.Scaffold, error) {
	cfg := lib.Config{
		TargetDirectory:      root,
		SourceDirectory:      s.source,
		MergeTargetDirectory: true,
		SkipEmpty:            s.p.SkipEmpty,
		CustomLeftDelimiter:  s.p.LeftDelimiter,
		CustomRightDelimiter: s.p.RightDelimiter,
	}
	lent, _ := s.tmpl.(funcSource)
	if s.p.Engine == engineGo {
		var funcs template.FuncMap
		if lent != nil {
			funcs = template.FuncMap{}
			for name, fn := range lent.Functions() {
				funcs[name] = fn
			}
		}
		return lib.New(cfg, funcs)
	}
	var funcs map[string]jet.Func
	if lent != nil {
		funcs = lent.JetFunctions()
	}
	return lib.NewJet(cfg, funcs)
}

// funcSource is a template environment that also lends its functions
// (lookup, readFile, file, template, jet) to other engines, as
// resources/template does; scaffold templates then have them too.
type funcSource interface {
	Functions() map[string]func(args ...any) (any, error)
	JetFunctions() map[string]jet.Func
}

// data is what templates see: facts, data and environ, also under
// upstream's capitalised names (Facts, Data, Environ). The Go engine takes
// a plain map; Jet needs a VarMap to expose them as variables.
func (s *scaffold) data() any {
	vars := map[string]any{}
	for k, v := range s.tmpl.Vars() {
		vars[k] = v
	}
	if s.p.Data != nil {
		vars["data"] = s.p.Data
	}
	for _, k := range slices.Collect(maps.Keys(vars)) {
		if c := capitalise(k); c != k {
			if _, taken := vars[c]; !taken {
				vars[c] = vars[k]
			}
		}
	}
	if s.p.Engine == engineGo {
		return vars
	}
	vm := make(jet.VarMap, len(vars))
	for k, v := range vars {
		vm.Set(k, v)
	}
	return vm
}

func capitalise(s string) string {
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+len(string(r)):]
	}
	return s
}

// scan lists the rendered tree.
func (r *rendering) scan() error {
	r.files, r.dirs = map[string]fs.FileInfo{}, nil
	return filepath.WalkDir(r.root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == r.root {
			return err
		}
		rel := strings.TrimPrefix(path, r.root+string(filepath.Separator))
		if d.IsDir() {
			r.dirs = append(r.dirs, rel)
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		r.files[rel] = fi
		return nil
	})
}
