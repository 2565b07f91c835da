package template

import "strings"

// segment is one piece of a lexed string: literal text, or the source of
// one expression.
type segment struct {
	text string
	expr bool
	// open is the expression's opening delimiter, "{{" or "${", for error
	// messages; "" for a bare expression such as control's if.
	open string
}

// lexed is a string split into segments.
type lexed struct {
	segs []segment
	// single is true when the string is exactly one expression, surrounding
	// whitespace aside: its value keeps the expression's type.
	single bool
	// plain is true when nothing in the string needs resolving.
	plain bool
}

// plainText reports whether s holds no opening of an expression ("{{" or
// "${"): most strings, answered without lexing, which allocates, in one
// pass over s (a load asks it of each string of each resource).
func plainText(s string) bool {
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			return true
		}
		// The byte before s, once cut, is a '{', never a '$'.
		if i > 0 && s[i-1] == '$' || i+1 < len(s) && s[i+1] == '{' {
			return false
		}
		s = s[i+1:]
	}
}

// lex splits s into literal text and expressions, following upstream
// CCM's lexer and adding two escapes:
//   - `{{ expr }}` ends at the first `}}` outside a quoted string;
//   - `${ expr }` ends at the `}` that balances its `{`, so lambdas such as
//     `${ map(xs, { # + 1 }) }` work;
//   - quotes inside an expression are '…' and "…" with backslash escapes,
//     and raw `…`;
//   - `${{` is a literal `$` followed by a `{{` expression;
//   - an opener without its closer is literal text;
//   - `$${` is a literal `${` and `{{{` a literal `{{` (our escapes).
func lex(s string) lexed {
	if plainText(s) {
		return lexed{segs: []segment{{text: s}}, plain: true}
	}
	var out []segment
	var lit strings.Builder
	escaped := false
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "$${"):
			lit.WriteString("${")
			i += 3
			escaped = true
		case strings.HasPrefix(s[i:], "{{{"):
			lit.WriteString("{{")
			i += 3
			escaped = true
		case strings.HasPrefix(s[i:], "${{"):
			lit.WriteByte('$')
			i++
		case strings.HasPrefix(s[i:], "{{"), strings.HasPrefix(s[i:], "${"):
			end, ok := closeAt(s, i)
			if !ok {
				lit.WriteString(s[i : i+2])
				i += 2
				continue
			}
			if lit.Len() > 0 {
				out = append(out, segment{text: lit.String()})
				lit.Reset()
			}
			dollar := s[i] == '$'
			inner := s[i+2 : end]
			if !dollar {
				inner = s[i+2 : end-1]
			}
			out = append(out, segment{text: strings.TrimSpace(inner), expr: true, open: s[i : i+2]})
			i = end + 1
		default:
			lit.WriteByte(s[i])
			i++
		}
	}
	if lit.Len() > 0 {
		out = append(out, segment{text: lit.String()})
	}
	return finish(out, escaped)
}

// resolvable reports what !lex(s).plain does, without building the
// segments: whether s holds an expression or an escape.
func resolvable(s string) bool {
	if plainText(s) {
		return false
	}
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "$${"), strings.HasPrefix(s[i:], "{{{"):
			return true
		case strings.HasPrefix(s[i:], "${{"):
			i++
		case strings.HasPrefix(s[i:], "{{"), strings.HasPrefix(s[i:], "${"):
			if _, ok := closeAt(s, i); ok {
				return true
			}
			i += 2
		default:
			i++
		}
	}
	return false
}

// finish decides whether the segments are one typed expression.
func finish(segs []segment, escaped bool) lexed {
	l := lexed{segs: segs, plain: !escaped}
	exprs := 0
	for _, sg := range segs {
		if sg.expr {
			exprs++
			l.plain = false
		} else if strings.TrimSpace(sg.text) != "" {
			exprs = 2 // literal text around the expression: a string result
		}
	}
	l.single = exprs == 1
	return l
}

// closeAt finds the last byte of the expression opened at s[start:] by
// `{{` or `${`, skipping quoted strings. For `{{` that is the second `}` of
// the first `}}`; for `${` it is the `}` that balances the opener.
func closeAt(s string, start int) (int, bool) {
	dollar := s[start] == '$'
	depth := 1
	var quote byte
	for i := start + 2; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && quote != '`' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case !dollar && c == '}' && i+1 < len(s) && s[i+1] == '}':
			return i + 1, true
		case dollar && c == '{':
			depth++
		case dollar && c == '}':
			depth--
			if depth == 0 {
				return i, true
			}
		}
	}
	return 0, false
}
