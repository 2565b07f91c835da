package resources

import "fmt"

// Deferred is a string property kept as written in the manifest (decoded
// from a field tagged `ccm:"deferred"`) and resolved through
// Templates.String just before each use, so it may name values known only
// at run time. Errors name the property and where it is written. The zero
// Deferred is a property the manifest does not set.
type Deferred struct {
	// label names the property in errors: "cwd", "environment: item 2".
	label string
	raw   string
	pos   Pos
	// tmpl is nil when raw holds no template and is used as written.
	tmpl Templates
	// check, when set, validates every resolved value.
	check func(string) error
	// seen, when set, remembers what the templates resolve to.
	seen *Templated
}

// NewDeferred keeps raw for resolution through tmpl at use; label and pos
// name it in errors. With Literal{} as tmpl, raw is used as written.
func NewDeferred(tmpl Templates, label, raw string, pos Pos) Deferred {
	d := Deferred{label: label, raw: raw, pos: pos}
	if tmpl.HasExpr(raw) {
		d.tmpl = tmpl
	}
	return d
}

// Defer keeps raw, the value of property key, for resolution at use.
// A sensitive resource's value written without templates is recorded as
// a secret at once; templated ones are recorded as they resolve, and
// remembered in s.Templated for errors to leave out.
func (s *Spec) Defer(key, raw string) Deferred {
	return s.DeferAt(key, raw, s.KeyPos(key))
}

// DeferAt is Defer for a value labelled label at pos: an item of a list.
func (s *Spec) DeferAt(label, raw string, pos Pos) Deferred {
	d := NewDeferred(s.Templates, label, raw, pos)
	if d.tmpl == nil {
		s.Secrets.Add(raw)
	}
	d.seen = s.Templated
	return d
}

// WithCheck returns d validating every resolved value with check. A value
// without templates is best checked once when the resource is built, from
// Literal, so the manifest is refused before anything runs.
func (d Deferred) WithCheck(check func(string) error) Deferred {
	d.check = check
	return d
}

// IsSet reports whether the manifest sets the property.
func (d Deferred) IsSet() bool { return d.label != "" }

// Label names the property in errors.
func (d Deferred) Label() string { return d.label }

// Literal returns the value when it is set and holds no template, for what
// must be known when the graph is built.
func (d Deferred) Literal() (string, bool) {
	return d.raw, d.IsSet() && d.tmpl == nil
}

// ReadsFiles reports whether resolving the value may read files, whose
// content an earlier resource may write.
func (d Deferred) ReadsFiles() bool {
	return d.tmpl != nil && d.tmpl.ReadsFiles(d.raw)
}

// FilesRead returns the files resolving the value reads whose names are
// written in it, for a watching daemon to watch.
func (d Deferred) FilesRead() []string {
	if d.tmpl == nil {
		return nil
	}
	return d.tmpl.FilesRead(d.raw)
}

// Resolve returns the value, its templates resolved and checked. Its
// errors start with the property's position and label.
func (d Deferred) Resolve() (string, error) {
	s := d.raw
	var err error
	if d.tmpl != nil {
		if s, err = d.tmpl.String(d.raw); err == nil {
			d.seen.remember(d.pos.String()+" "+d.label, []string{s})
		}
	}
	if err == nil && d.check != nil {
		if err = d.check(s); d.tmpl != nil {
			err = redact(err, []string{s})
		}
	}
	if err != nil {
		return "", fmt.Errorf("%s: %s: %w", d.pos, d.label, err)
	}
	return s, nil
}
