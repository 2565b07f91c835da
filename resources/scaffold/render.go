package scaffold

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/template"
	"unicode"

	"github.com/CloudyKit/jet/v6"
	lib "github.com/choria-io/scaffold"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"golang.org/x/sys/unix"
)

// rendering is the source rendered into a private temporary directory,
// post commands applied. Close removes it.
type rendering struct {
	tmp string
	// root holds the rendered tree.
	root string
	// files maps each rendered file's path relative to root to its
	// permission bits and size.
	files map[string]renderedFile
	// dirs lists the rendered directories relative to root, parents first.
	dirs []string
}

// renderedFile is what a target file is compared with, besides content.
type renderedFile struct {
	perm uint32
	size int64
}

func (r *rendering) Close() error { return os.RemoveAll(r.tmp) }

// sorted lists the rendered files in order.
func (r *rendering) sorted() []string {
	return slices.Sorted(maps.Keys(r.files))
}

// path returns where the rendered file rel is.
func (r *rendering) path(rel string) string { return filepath.Join(r.root, rel) }

// render renders the source with a Scaffold made for this call alone (a
// Scaffold is not safe for concurrent use) and runs the post commands.
// The source is opened by a safe walk and handed to the library through
// its descriptor.
func (s *scaffold) render(ctx context.Context) (*rendering, error) {
	src, err := s.links.OpenDir(s.source)
	if errors.Is(err, unix.ENOENT) {
		err = fmt.Errorf("the source %s does not exist", s.source)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRender, err)
	}
	defer src.Close()
	tmp, err := os.MkdirTemp("", "ccm-scaffold-")
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRender, err)
	}
	r := &rendering{tmp: tmp, root: filepath.Join(tmp, "out")}
	if within(tmp, s.target) || within(tmp, s.source) {
		err = fmt.Errorf("%w: the temporary directory %s is inside the scaffold's target or source; set TMPDIR elsewhere", ErrRender, os.TempDir())
	} else {
		err = s.renderInto(ctx, src, r)
	}
	if err != nil {
		return nil, errors.Join(err, r.Close())
	}
	return r, nil
}

func (s *scaffold) renderInto(ctx context.Context, src *safepath.Dir, r *rendering) error {
	// The trailing slash makes the library's walk enter the directory the
	// descriptor path leads to.
	srcPath := src.FdPath() + "/"
	sc, err := s.newLib(srcPath, r.root)
	if err != nil {
		return fmt.Errorf("%w: %s: %s", ErrRender, s.source, strings.ReplaceAll(err.Error(), srcPath, s.source+"/"))
	}
	if _, err := sc.Render(s.data()); err != nil {
		return fmt.Errorf("%w: %s: %s", ErrRender, s.source, strings.ReplaceAll(err.Error(), srcPath, s.source+"/"))
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

// newLib configures the library for one render of source into root. Post commands
// are not given to it: runPost runs them under a timeout.
func (s *scaffold) newLib(source, root string) (*lib.Scaffold, error) {
	cfg := lib.Config{
		TargetDirectory:      root,
		SourceDirectory:      source,
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
	r.files, r.dirs = map[string]renderedFile{}, nil
	root, err := safepath.Policy{}.OpenDir(r.root)
	if err != nil {
		return err
	}
	defer root.Close()
	return root.Walk(func(in *safepath.Dir, name, rel string, isDir bool) error {
		if isDir {
			r.dirs = append(r.dirs, rel)
			return nil
		}
		st, err := in.Stat(name)
		if err != nil {
			return err
		}
		r.files[rel] = renderedFile{perm: st.Mode & 0o777, size: st.Size}
		return nil
	})
}
