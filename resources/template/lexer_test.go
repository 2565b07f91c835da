package template

import (
	"reflect"
	"testing"
)

func TestLexFindsExpressions(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		exprs []string
	}{
		{"braces", "{{ Data.x }}", []string{"Data.x"}},
		{"two braces expressions", "a {{ x }} b {{ y }} c", []string{"x", "y"}},
		{"empty braces", "{{  }}", []string{""}},
		{"single closing brace inside braces", "{{ a } b }}", []string{"a } b"}},
		{"closer in double quotes", `{{ x("}}") }}`, []string{`x("}}")`}},
		{"closer in single quotes", `{{ x('}}') }}`, []string{`x('}}')`}},
		{"closer in backticks", "{{ x(`}}`) }}", []string{"x(`}}`)"}},
		{"escaped quote before closer", `{{ x("a\"}}b") }}`, []string{`x("a\"}}b")`}},
		{"backslash ends a raw string", "{{ x(`a\\`)}}", []string{"x(`a\\`)"}},
		{"dollar", "${ Data.x }", []string{"Data.x"}},
		{"empty dollar", "${  }", []string{""}},
		{"two dollar expressions", "${ a } and ${ b }", []string{"a", "b"}},
		{"lambda braces balance", "${ map(xs, { # + 1 }) }", []string{"map(xs, { # + 1 })"}},
		{"nested lambda", "${ filter(xs, { # > 5 }) }", []string{"filter(xs, { # > 5 })"}},
		{"closing brace in quotes in dollar", `${ x("}") }`, []string{`x("}")`}},
		{"double closer in quotes in dollar", `${ x("}}") }`, []string{`x("}}")`}},
		{"both syntaxes", "a {{ x }} b ${ y } c", []string{"x", "y"}},
		{"dollar before braces is literal", "${{ Data.x }}", []string{"Data.x"}},
		{"unterminated braces then dollar", "{{ a ${ b }", []string{"b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := exprsOf(lex(tt.in)); !reflect.DeepEqual(got, tt.exprs) {
				t.Fatalf("lex(%q) expressions = %q, want %q", tt.in, got, tt.exprs)
			}
		})
	}
}

func TestLexLiteralText(t *testing.T) {
	tests := []struct {
		name, in, text string
		plain          bool
	}{
		{"plain text", "plain text", "plain text", true},
		{"unterminated braces", "{{ unterminated", "{{ unterminated", true},
		{"unterminated dollar", "${ unterminated", "${ unterminated", true},
		{"dollar without brace", "costs $5", "costs $5", true},
		{"escaped dollar", "echo $${HOME}", "echo ${HOME}", false},
		{"escaped braces", "{{{ not a template }}", "{{ not a template }}", false},
		{"doubled dollar alone", "pid $$ here", "pid $$ here", true},
		{"escape then literal closer", "$${ a } and {{{ b }}", "${ a } and {{ b }}", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := lex(tt.in)
			if got := exprsOf(l); len(got) != 0 {
				t.Fatalf("lex(%q) found expressions %q, want none", tt.in, got)
			}
			if l.plain != tt.plain {
				t.Errorf("lex(%q).plain = %v, want %v", tt.in, l.plain, tt.plain)
			}
			if got := textOf(l); got != tt.text {
				t.Errorf("lex(%q) text = %q, want %q", tt.in, got, tt.text)
			}
		})
	}
}

func TestLexSingleExpression(t *testing.T) {
	tests := []struct {
		in     string
		single bool
	}{
		{"{{ x }}", true},
		{"  ${ x }\n", true},
		{"a ${ x }", false},
		{"${ x }${ y }", false},
		{"$${ x }", false},
		{"${{ x }}", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := lex(tt.in).single; got != tt.single {
				t.Fatalf("lex(%q).single = %v, want %v", tt.in, got, tt.single)
			}
		})
	}
}

func exprsOf(l lexed) []string {
	var out []string
	for _, sg := range l.segs {
		if sg.expr {
			out = append(out, sg.text)
		}
	}
	return out
}

func textOf(l lexed) string {
	var out string
	for _, sg := range l.segs {
		out += sg.text
	}
	return out
}

// plainText finds an opener wherever it is, and only an opener.
func TestPlainTextFindsEveryOpener(t *testing.T) {
	for _, tc := range []struct {
		in    string
		plain bool
	}{
		{"", true},
		{"/etc/motd", true},
		{"{", true},
		{"}{", true},
		{"a{b{c", true},
		{"{$", true},
		{"$ {", true},
		{"${", false},
		{"{{", false},
		{"a${b", false},
		{"a{{b", false},
		{"a{b{{c", false},
		{"{a${b}", false},
		{"x{", true},
		{"x{$", true},
		{"{${", false},
	} {
		if got := plainText(tc.in); got != tc.plain {
			t.Errorf("plainText(%q) = %v, want %v", tc.in, got, tc.plain)
		}
	}
}
