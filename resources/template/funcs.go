package template

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reactive-ccm/ccm/resources/internal/safepath"
)

// arity checks that a function of signature sig ("lookup(key[,
// default])") was given one of counts arguments (one count or two).
func arity(sig string, args []any, counts ...int) error {
	if slices.Contains(counts, len(args)) {
		return nil
	}
	want := fmt.Sprintf("%d argument", counts[0])
	if len(counts) == 2 {
		want = fmt.Sprintf("%d or %d arguments", counts[0], counts[1])
	} else if counts[0] != 1 {
		want += "s"
	}
	return fmt.Errorf("%w: %s takes %s, got %d", ErrArgs, sig, want, len(args))
}

// stringArg returns args[i] as a string, or an error naming fn.
func stringArg(fn, what string, args []any, i int) (string, error) {
	s, ok := args[i].(string)
	if !ok {
		return "", fmt.Errorf("%w: %s: %s must be a string, got %T", ErrArgs, fn, what, args[i])
	}
	return s, nil
}

// stringArgs returns the first len(what) args as strings, what naming
// each in fn's error.
func stringArgs(fn string, args []any, what ...string) ([]string, error) {
	out := make([]string, len(what))
	for i, w := range what {
		s, err := stringArg(fn, w, args, i)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// path resolves p against the manifest's directory when it is relative.
func (t *Templates) path(p string) string {
	if filepath.IsAbs(p) || t.env.Dir == "" {
		return p
	}
	return filepath.Join(t.env.Dir, p)
}

// readFile implements readFile(path) and file(path): the file's content,
// a relative path read from the manifest's directory.
func (t *Templates) readFile(b *budget, args ...any) (any, error) {
	if err := arity("readFile(path)", args, 1); err != nil {
		return nil, err
	}
	p, err := stringArg("readFile", "the path", args, 0)
	if err != nil {
		return nil, err
	}
	return t.read(b, p)
}

// MaxFileSize bounds every file templates read: readFile, file, the
// files of template() and jet(), and resources_jet_file.
const MaxFileSize = 16 << 20

func (t *Templates) read(b *budget, p string) (string, error) {
	s, err := t.ReadFile(p)
	if err == nil {
		err = b.charge(int64(len(s)))
	}
	if err != nil {
		return "", fmt.Errorf("readFile: %w", err)
	}
	return s, nil
}

// ReadFile returns the content of the file at p, relative to the
// manifest's directory, as readFile() reads it: a regular file of at most
// MaxFileSize bytes, reached without following a symlink someone other
// than root controls. A FIFO, a device or a larger file is an error.
func (t *Templates) ReadFile(p string) (string, error) {
	b, err := safepath.Policy{}.ReadFile(t.path(p), MaxFileSize)
	return string(b), err
}

// template implements template(s): a name ending in .templ is read and
// resolved as an expression template, one ending in .jet is rendered with
// Jet, anything else is resolved as an expression template itself.
func (t *Templates) template(b *budget, args ...any) (any, error) {
	if err := arity("template(name or text)", args, 1); err != nil {
		return nil, err
	}
	s, err := stringArg("template", "the argument", args, 0)
	if err != nil {
		return nil, err
	}
	switch filepath.Ext(s) {
	case ".jet":
		return t.jet(b, s)
	case ".templ":
		if s, err = t.read(b, s); err != nil {
			return nil, err
		}
	}
	n, err := t.nested()
	if err != nil {
		return nil, err
	}
	return n.value(b, s)
}

// jet implements jet(body[, left, right]): body (or the file it names, when
// it ends in .jet) rendered with Jet, delimiters [[ ]] unless given.
func (t *Templates) jet(b *budget, args ...any) (any, error) {
	if err := arity("jet(body[, left, right])", args, 1, 3); err != nil {
		return nil, err
	}
	body, err := stringArg("jet", "the body", args, 0)
	if err != nil {
		return nil, err
	}
	left, right := "[[", "]]"
	if len(args) == 3 {
		if left, err = stringArg("jet", "the left delimiter", args, 1); err != nil {
			return nil, err
		}
		if right, err = stringArg("jet", "the right delimiter", args, 2); err != nil {
			return nil, err
		}
	}
	name := "inline"
	if strings.HasSuffix(body, ".jet") {
		name = body
		if body, err = t.read(b, body); err != nil {
			return nil, err
		}
	}
	n, err := t.nested()
	if err != nil {
		return nil, err
	}
	return n.render(b, name, body, left, right)
}
