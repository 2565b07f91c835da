package fileline

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
)

// Ensure values of the file_line resource.
const (
	Present = "present"
	Absent  = "absent"
)

// props are the file_line resource's manifest properties.
type props struct {
	Ensure      string `yaml:"ensure" help:"present (the default) or absent" enum:"present,absent" cli:"arg=1,default=present"`
	Path        string `yaml:"path" help:"the absolute path of the file to edit; it must exist"`
	Line        string `yaml:"line" help:"the whole line, without its newline"`
	Match       string `yaml:"match" help:"a regular expression (RE2) matching the line and the lines it replaces: the first match becomes line, later ones are removed; with ensure absent, the lines removed"`
	After       string `yaml:"after" help:"a regular expression: a new line or block goes after the last line matching it (at the end when none does)"`
	Before      string `yaml:"before" help:"a regular expression: a new line or block goes before the first line matching it (at the end when none does)"`
	Block       string `yaml:"block" help:"lines kept together between two marker lines, instead of one line" cli:"file=block-file"`
	MarkerBegin string `yaml:"marker_begin" help:"the line opening the block (default: # BEGIN CCM NAME)"`
	MarkerEnd   string `yaml:"marker_end" help:"the line closing the block (default: # END CCM NAME)"`
	Replace     *bool  `yaml:"replace" help:"true (the default) replaces a differing match or block; false adds the line only when no line matches match (the block only when its markers are missing), then leaves it to the host" cli:"negate=no-replace"`
}

// validate reports every problem with the properties and returns the
// compiled edit when there is none.
func validate(spec *resources.Spec, p *props, errs *resources.ErrorList) *edit {
	e := &edit{ensure: Present, line: p.Line, replace: p.Replace == nil || *p.Replace}
	if spec.Has("ensure") {
		e.ensure = p.Ensure
	}
	spec.CheckOneOf(errs, "ensure", p.Ensure, Present, Absent)
	validatePath(spec, p.Path, errs)
	e.match = compile(spec, "match", p.Match, errs)
	e.after = compile(spec, "after", p.After, errs)
	e.before = compile(spec, "before", p.Before, errs)
	if spec.Has("block") {
		validateBlock(spec, p, e, errs)
	} else {
		validateLine(spec, p, e, errs)
	}
	if spec.Has("after") && spec.Has("before") {
		errs.Addf(spec.KeyPos("before"), "before: after and before cannot both be set")
	}
	if e.ensure == Absent {
		spec.CheckOnlyWith(errs, "ensure: present", "after", "before", "replace")
	}
	return e
}

func validatePath(spec *resources.Spec, path string, errs *resources.ErrorList) {
	switch {
	case !spec.Has("path"):
		errs.Addf(spec.Pos, "%s: path is required: the absolute path of the file to edit", spec.ID())
	case !filepath.IsAbs(path) || path == "/":
		errs.Addf(spec.KeyPos("path"), "path: %q is not the absolute path of a file", path)
	case filepath.Clean(path) != path:
		errs.Addf(spec.KeyPos("path"), "path: must be clean (no ., .., // or trailing /): write %s", filepath.Clean(path))
	}
}

// compile compiles the regular expression of property key, if set.
func compile(spec *resources.Spec, key, expr string, errs *resources.ErrorList) *regexp.Regexp {
	if !spec.Has(key) {
		return nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		errs.Addf(spec.KeyPos(key), "%s: %v", key, err)
	}
	return re
}

func validateLine(spec *resources.Spec, p *props, e *edit, errs *resources.ErrorList) {
	spec.CheckOnlyWith(errs, "block", "marker_begin", "marker_end")
	switch {
	case !spec.Has("line") && (e.ensure == Present || !spec.Has("match")):
		errs.Addf(spec.Pos, "%s: line or block is required (ensure: absent may give match alone)", spec.ID())
	case strings.ContainsAny(p.Line, "\n\r"):
		errs.Addf(spec.KeyPos("line"), "line: must be one line; use block for several")
	case e.ensure == Present && e.match != nil && !e.match.MatchString(p.Line):
		errs.Addf(spec.KeyPos("match"), "match: %q does not match line %q, so the line would be added again at every run", p.Match, p.Line)
	}
	if spec.Has("replace") && !e.replace && e.match == nil {
		errs.Addf(spec.KeyPos("replace"), "replace: false needs match, the lines whose presence leaves the file alone")
	}
}

func validateBlock(spec *resources.Spec, p *props, e *edit, errs *resources.ErrorList) {
	for _, key := range []string{"line", "match"} {
		if spec.Has(key) {
			errs.Addf(spec.KeyPos(key), "%s: block and %s cannot both be set", key, key)
		}
	}
	e.block = splitBlock(p.Block)
	e.begin, e.end = "# BEGIN CCM "+spec.Name, "# END CCM "+spec.Name
	if spec.Has("marker_begin") {
		e.begin = p.MarkerBegin
	}
	if spec.Has("marker_end") {
		e.end = p.MarkerEnd
	}
	for _, m := range []struct{ key, line string }{{"marker_begin", e.begin}, {"marker_end", e.end}} {
		if m.line == "" || strings.ContainsAny(m.line, "\n\r") {
			errs.Addf(spec.KeyPos(m.key), "%s: must be one non-empty line", m.key)
		}
	}
	if e.begin == e.end {
		errs.Addf(spec.KeyPos("marker_end"), "marker_end: must differ from marker_begin")
	}
	for i, l := range e.block {
		if l == e.begin || l == e.end {
			errs.Addf(spec.KeyPos("block"), "block: line %d is a marker line; markers cannot be inside the block", i+1)
		}
	}
}

// splitBlock splits a block into its lines; one final newline (a YAML
// literal block's) ends the last line.
func splitBlock(block string) []string {
	if block == "" {
		return []string{}
	}
	return strings.Split(strings.TrimSuffix(strings.ReplaceAll(block, "\r\n", "\n"), "\n"), "\n")
}
