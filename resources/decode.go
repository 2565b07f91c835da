package resources

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

// Decode fills the struct dst points to from the spec's properties,
// strictly. Fields are matched by their `yaml` tag; an `inline` field's
// fields are matched too. A field tagged `ccm:"deferred"` is a string kept
// exactly as written, for the resource to resolve just before it runs; every
// other string is resolved through the spec's Templates first. Every problem
// is collected into an ErrorList with the position of the node at fault.
func (s *Spec) Decode(dst any) error {
	if t := reflect.TypeOf(dst).Elem(); s.props != nil && t != s.props {
		panic(fmt.Sprintf("resources: %s decodes into %s but declares %s as its Props", s.Type, t, s.props))
	}
	return decodeStruct(s.Props, reflect.ValueOf(dst).Elem(), s.ID(), s.common, s.NodePos, s.decodeField)
}

// DecodeProps decodes the spec's properties into a new P, as Decode
// does, and returns the list of problems the type's New goes on adding
// its validation's to, so that every problem is reported at once.
func DecodeProps[P any](s *Spec) (*P, *ErrorList) {
	p := new(P)
	errs := new(ErrorList)
	errs.Add(s.Pos, s.Decode(p))
	return p, errs
}

// DecodeDocument fills the struct dst points to from the YAML mapping m
// of file, strictly, as Decode does a resource's properties but without
// templates: what names the document in errors ("the agent
// configuration").
func DecodeDocument(file, what string, m *yaml.Node, dst any) error {
	pos := func(n *yaml.Node) Pos { return Pos{File: file, Line: n.Line, Col: n.Column} }
	if m.Kind != yaml.MappingNode {
		return ErrorList{Errorf(pos(m), "%s must be a map of settings, got %s", what, yamlnode.Describe(m))}
	}
	return decodeStruct(m, reflect.ValueOf(dst).Elem(), what, commonKeys{}, pos, func(n *yaml.Node, _ field, v reflect.Value) error {
		return decodeValue(n, v)
	})
}

// decodeStruct decodes the mapping m into the struct v field by field with
// value, collecting every problem at its position; common says which
// common properties an unknown key may have meant.
func decodeStruct(m *yaml.Node, v reflect.Value, id string, common commonKeys, pos func(*yaml.Node) Pos, value func(*yaml.Node, field, reflect.Value) error) error {
	fields := fieldsOf(v.Type())
	var errs ErrorList
	keys := KeysOf(m)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, val := m.Content[i], m.Content[i+1]
		if first, dup := keys.Earlier(i); dup {
			errs.Addf(pos(k), "duplicate property %q (first set at line %d)", k.Value, first.Line)
			continue
		}
		f, ok := fields[k.Value]
		if !ok {
			errs.Addf(pos(k), "%s", unknownKeyMsg(id, k.Value, fields, common.names()))
			continue
		}
		if err := value(val, f, v.FieldByIndex(f.index)); err != nil {
			errs.Add(pos(val), prefixed(k.Value, err))
		}
	}
	return errs.Err()
}

// prefixed names the property an error is about.
func prefixed(key string, err error) error {
	var pe *PosError
	if errors.As(err, &pe) {
		return &PosError{Pos: pe.Pos, Msg: key + ": " + pe.Msg}
	}
	return fmt.Errorf("%s: %w", key, err)
}

type field struct {
	index    []int
	deferred bool
}

// fieldCache holds structFields per type: reflection over struct tags
// costs more than decoding a resource.
var fieldCache sync.Map

func fieldsOf(t reflect.Type) map[string]field {
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string]field)
	}
	f := structFields(t)
	fieldCache.Store(t, f)
	return f
}

func structFields(t reflect.Type) map[string]field {
	out := map[string]field{}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if opts == "inline" {
			for k, f := range structFields(sf.Type) {
				f.index = append([]int{i}, f.index...)
				out[k] = f
			}
			continue
		}
		if name == "" {
			continue
		}
		out[name] = field{index: []int{i}, deferred: sf.Tag.Get("ccm") == "deferred"}
	}
	return out
}

// unknownKeyMsg says that key is not a property of id, suggesting the
// property, its type's own or a common one, that it may be a misspelling
// of, or else listing them all: the type's own, then the common ones.
func unknownKeyMsg(id, key string, fields map[string]field, common []string) string {
	names := make([]string, 0, len(fields))
	for n := range fields {
		names = append(names, n)
	}
	sort.Strings(names)
	msg := fmt.Sprintf("unknown property %q for %s", key, id)
	if near := closest(key, append(slices.Clip(names), common...)); near != "" {
		return msg + fmt.Sprintf("; did you mean %q?", near)
	}
	msg += "; valid properties: " + strings.Join(names, ", ")
	if len(common) > 0 {
		msg += "; and those every resource takes: " + strings.Join(common, ", ")
	}
	return msg
}

// closest returns the candidate within a small edit distance of key.
func closest(key string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(key, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func (s *Spec) decodeField(n *yaml.Node, f field, dst reflect.Value) error {
	n = yamlnode.Deref(n)
	if f.deferred {
		if err := decodeRaw(n, dst); err != nil {
			return err
		}
		return s.compileDeferred(n)
	}
	var resolved []string
	pos := s.NodePos(n)
	n, err := s.resolveNode(n, &resolved)
	if err != nil {
		return err
	}
	if len(resolved) > 0 {
		s.Templated.remember(pos.String(), resolved)
	}
	if err := decodeValue(n, dst); err != nil {
		return redact(err, resolved)
	}
	return nil
}

// decodeRaw keeps a deferred string, or each item of a deferred string
// list, exactly as written.
func decodeRaw(n *yaml.Node, dst reflect.Value) error {
	if dst.Kind() == reflect.Slice {
		if n.Kind != yaml.SequenceNode {
			return fmt.Errorf("expected a list of strings, got %s", yamlnode.Describe(n))
		}
		out := make([]string, len(n.Content))
		for i, item := range n.Content {
			item = yamlnode.Deref(item)
			if item.Kind != yaml.ScalarNode || item.Tag == "!!null" {
				return &PosError{Pos: Pos{Line: item.Line, Col: item.Column}, Msg: fmt.Sprintf("item %d: expected a string, got %s", i+1, yamlnode.Describe(item))}
			}
			out[i] = item.Value
		}
		dst.Set(reflect.ValueOf(out))
		return nil
	}
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return fmt.Errorf("expected a string, got %s", yamlnode.Describe(n))
	}
	dst.SetString(n.Value)
	return nil
}

// resolveNode resolves template expressions in every string scalar of n,
// returning n itself when nothing changed, else a new node that carries
// n's position. The scalars templates produced are added to resolved, so
// errors about them can leave them out.
func (s *Spec) resolveNode(n *yaml.Node, resolved *[]string) (*yaml.Node, error) {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag != "!!str" || !s.Templates.HasExpr(n.Value) {
			return n, nil
		}
		v, err := s.Templates.Value(n.Value)
		if err != nil {
			return nil, err
		}
		out, err := valueNode(v)
		if err != nil {
			return nil, fmt.Errorf("template result: %w", err)
		}
		setPos(out, n.Line, n.Column)
		*resolved = appendScalars(*resolved, out)
		return out, nil
	case yaml.SequenceNode, yaml.MappingNode:
		var cp *yaml.Node
		for i, c := range n.Content {
			r, err := s.resolveNode(yamlnode.Deref(c), resolved)
			if err != nil {
				return nil, err
			}
			if r == c {
				continue
			}
			if cp == nil {
				dup := *n
				dup.Content = append([]*yaml.Node(nil), n.Content...)
				cp = &dup
			}
			cp.Content[i] = r
		}
		if cp == nil {
			return n, nil
		}
		return cp, nil
	}
	return n, nil
}

// valueNode builds the node of a template result; scalars directly,
// anything else through the YAML encoder.
func valueNode(v any) (*yaml.Node, error) {
	scalar := func(tag, value string) (*yaml.Node, error) {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}, nil
	}
	switch x := v.(type) {
	case nil:
		return scalar("!!null", "")
	case string:
		return scalar("!!str", x)
	case bool:
		return scalar("!!bool", strconv.FormatBool(x))
	case int:
		return scalar("!!int", strconv.Itoa(x))
	case int64:
		return scalar("!!int", strconv.FormatInt(x, 10))
	case float64:
		return scalar("!!float", strconv.FormatFloat(x, 'g', -1, 64))
	}
	var out yaml.Node
	if err := out.Encode(v); err != nil {
		return nil, err
	}
	return &out, nil
}

// appendScalars adds the values of n's scalars to out.
func appendScalars(out []string, n *yaml.Node) []string {
	if n.Kind == yaml.ScalarNode {
		return append(out, n.Value)
	}
	for _, c := range n.Content {
		out = appendScalars(out, c)
	}
	return out
}

func setPos(n *yaml.Node, line, col int) {
	n.Line, n.Column = line, col
	for _, c := range n.Content {
		setPos(c, line, col)
	}
}

var unmarshalerType = reflect.TypeFor[yaml.Unmarshaler]()

// decodeValue decodes n into dst with strict type rules: strings take any
// scalar as written (so a version 1.10 stays "1.10"), booleans and integers
// must be YAML booleans and integers, lists must be lists, maps must be maps
// without duplicate keys.
func decodeValue(n *yaml.Node, dst reflect.Value) error {
	n = yamlnode.Deref(n)
	if dst.CanAddr() && dst.Addr().Type().Implements(unmarshalerType) {
		return dst.Addr().Interface().(yaml.Unmarshaler).UnmarshalYAML(n)
	}
	switch dst.Kind() {
	case reflect.Pointer:
		if n.Tag == "!!null" {
			return nil
		}
		p := reflect.New(dst.Type().Elem())
		if err := decodeValue(n, p.Elem()); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			return fmt.Errorf("expected a string, got %s", yamlnode.Describe(n))
		}
		if n.Tag != "!!null" {
			dst.SetString(n.Value)
		}
		return nil
	case reflect.Bool:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
			return fmt.Errorf("expected true or false, got %s", yamlnode.Describe(n))
		}
		b, err := strconv.ParseBool(n.Value)
		if err != nil {
			return fmt.Errorf("expected true or false, got %q", n.Value)
		}
		dst.SetBool(b)
		return nil
	case reflect.Int, reflect.Int64, reflect.Int32:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
			return fmt.Errorf("expected an integer, got %s", yamlnode.Describe(n))
		}
		var i int64
		if err := n.Decode(&i); err != nil {
			return fmt.Errorf("expected an integer, got %q", n.Value)
		}
		if dst.OverflowInt(i) {
			return fmt.Errorf("expected an integer that fits in %d bits, got %s", dst.Type().Bits(), n.Value)
		}
		dst.SetInt(i)
		return nil
	case reflect.Slice:
		return decodeSlice(n, dst)
	case reflect.Map:
		return decodeMap(n, dst)
	case reflect.Interface:
		if err := checkDuplicates(n); err != nil {
			return err
		}
		var v any
		if err := n.Decode(&v); err != nil {
			return err
		}
		if v != nil {
			dst.Set(reflect.ValueOf(v))
		}
		return nil
	}
	return fmt.Errorf("resources: cannot decode into %s", dst.Type())
}

func decodeSlice(n *yaml.Node, dst reflect.Value) error {
	if n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return fmt.Errorf("expected a list, got %s", yamlnode.Describe(n))
	}
	out := reflect.MakeSlice(dst.Type(), len(n.Content), len(n.Content))
	for i, item := range n.Content {
		if err := decodeValue(item, out.Index(i)); err != nil {
			return &PosError{Pos: Pos{Line: item.Line, Col: item.Column}, Msg: fmt.Sprintf("item %d: %v", i+1, err)}
		}
	}
	dst.Set(out)
	return nil
}

func decodeMap(n *yaml.Node, dst reflect.Value) error {
	if n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("expected a map, got %s", yamlnode.Describe(n))
	}
	if err := checkDuplicates(n); err != nil {
		return err
	}
	out := reflect.MakeMapWithSize(dst.Type(), len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := reflect.New(dst.Type().Key()).Elem()
		if err := decodeValue(n.Content[i], k); err != nil {
			return fmt.Errorf("key %q: %w", n.Content[i].Value, err)
		}
		v := reflect.New(dst.Type().Elem()).Elem()
		if err := decodeValue(n.Content[i+1], v); err != nil {
			return fmt.Errorf("%s: %w", n.Content[i].Value, err)
		}
		out.SetMapIndex(k, v)
	}
	dst.Set(out)
	return nil
}

// checkDuplicates rejects duplicate keys anywhere inside n; yaml.v3 does
// not when decoding nodes.
func checkDuplicates(n *yaml.Node) error {
	n = yamlnode.Deref(n)
	if n.Kind == yaml.MappingNode {
		keys := KeysOf(n)
		for i := 0; i+1 < len(n.Content); i += 2 {
			if first, dup := keys.Earlier(i); dup {
				k := n.Content[i]
				return fmt.Errorf("duplicate key %q at line %d (first set at line %d)", k.Value, k.Line, first.Line)
			}
		}
	}
	for _, c := range n.Content {
		if err := checkDuplicates(c); err != nil {
			return err
		}
	}
	return nil
}
