package template

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunTimeErrorsQuoteNoValue: an expression that fails while running
// is described by its text and what failed, never by the values it read
// (data and facts may hold secrets, and errors reach logs and events).
func TestRunTimeErrorsQuoteNoValue(t *testing.T) {
	const secret = "hunter2"
	env := testEnv(t.TempDir())
	env.Data["secret"] = secret
	env.Data["smap"] = map[string]any{"k": secret}
	env.Data["slist"] = []any{secret}
	tm := New(env)
	tests := []struct{ in, want string }{
		{"{{ Data.port.x }}", "cannot fetch a key or an index from a int"},
		{"{{ Data.nothing.x }}", "cannot fetch a key or an index from a <nil>"},
		{"{{ Data.slist[5] }}", "index out of range"},
		{"{{ Data.smap.k[9] }}", "index out of range"},
		{"{{ Data.port[1:2] }}", "cannot slice the value"},
		{"{{ int(Data.secret) }}", "invalid operation: int() of a value that is not one"},
		{"{{ float(Data.smap) }}", "invalid operation: float() of a value that is not one"},
		{"{{ fromJSON(Data.secret) }}", "invalid character … looking for beginning of value"},
		{"{{ duration(Data.secret) }}", "time: invalid duration …"},
		{"{{ date(Data.secret, '2006') }}", "parsing time … as …: cannot parse … as …"},
		{"{{ Data.secret matches Data.secret + '(' }}", "error parsing regexp: missing closing ): …"},
		{"{{ date(Data.secret) }}", "invalid date"},
		{"{{ timezone(Data.secret) }}", "unknown time zone"},
		{"{{ date('2020', '2006', Data.secret) }}", "unknown time zone"},
		{"{{ fromPairs(Data.slist) }}", "invalid pair: fromPairs takes a list of [key, value] lists"},
		{"{{ Data.smap + 1 }}", "invalid operation: …interface {} + int"},
		{"{{ template('{{ int(Data.secret) }}') }}", "in a nested template: invalid operation: int() of a value that is not one"},
		{"{{ jet('[[ data.secret.x ]]') }}", "jet inline: Jet Runtime Error (…:1): cannot index slice/array/string with type string"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := tm.String(tt.in)
			var ee *ExprError
			if !errors.As(err, &ee) || !ee.Ran {
				t.Fatalf("error %v, want a run-time ExprError", err)
			}
			if want := "template " + tt.in + ": " + tt.want; err.Error() != want {
				t.Fatalf("error %q\nwant      %q", err, want)
			}
			if strings.Contains(err.Error(), secret) {
				t.Fatalf("the error shows the secret: %q", err)
			}
		})
	}
}

// TestOwnErrorsSayWhatToDo: this package's functions fail with messages
// that name the function and the fix, and wrap their sentinels.
func TestOwnErrorsSayWhatToDo(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/etc/hostname", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(filepath.Join(dir, "link"), 65534, 65534); err != nil && os.Geteuid() == 0 {
		t.Fatal(err)
	}
	tm := New(testEnv(dir))
	tests := []struct {
		in   string
		is   error
		want string
	}{
		{"{{ repeat('a', -1) }}", ErrArgs, "bad arguments: repeat: the count must not be negative"},
		{"{{ repeat(1, 2) }}", ErrArgs, "bad arguments: repeat: the text must be a string, got int"},
		{"{{ repeat('a') }}", ErrArgs, "bad arguments: repeat(text, count) takes 2 arguments, got 1"},
		{"{{ replace('a', 'b') }}", ErrArgs, "bad arguments: replace(text, old, new[, count]) takes 3 or 4 arguments, got 2"},
		{"{{ replace('a', 1, 'c') }}", ErrArgs, "bad arguments: replace: the old text must be a string, got int"},
		{"{{ join(['a', 1]) }}", ErrArgs, "bad arguments: join: item 1 is a int, not a string"},
		{"{{ join('x') }}", ErrArgs, "bad arguments: join: expected a list of strings, got string"},
		{"{{ join(['a'], 1) }}", ErrArgs, "bad arguments: join: the separator must be a string, got int"},
		{"{{ split('a', 1) }}", ErrArgs, "bad arguments: split: the separator must be a string, got int"},
		{"{{ split(1, ',') }}", ErrArgs, "bad arguments: split: the text must be a string, got int"},
		{"{{ string(1, 2) }}", ErrArgs, "bad arguments: string(value) takes 1 argument, got 2"},
		{"{{ toJSON() }}", ErrArgs, "bad arguments: toJSON(value) takes 1 argument, got 0"},
		{"{{ readFile() }}", ErrArgs, "bad arguments: readFile(path) takes 1 argument, got 0"},
		{"{{ readFile(1) }}", ErrArgs, "bad arguments: readFile: the path must be a string, got int"},
		{"{{ kvGet('b', 'k') }}", ErrNoKV, "kvGet: no NATS key-value access here"},
		{"{{ readFile('/') }}", nil, "reading a file: not a regular file"},
		{"{{ readFile('missing') }}", os.ErrNotExist, "reading a file: no such file or directory"},
		{"{{ lookup('data.app_name', 1, 2) }}", ErrArgs, "bad arguments: lookup(key[, default]) takes 1 or 2 arguments, got 3"},
		{"{{ replace('a', 'b', 1) }}", ErrArgs, "bad arguments: replace: the new text must be a string, got int"},
		{"{{ split('a') }}", ErrArgs, "bad arguments: split(text, separator[, count]) takes 2 or 3 arguments, got 1"},
		{"{{ join() }}", ErrArgs, "bad arguments: join(list[, separator]) takes 1 or 2 arguments, got 0"},
		{"{{ template('a', 'b') }}", ErrArgs, "bad arguments: template(name or text) takes 1 argument, got 2"},
		{"{{ jet('a', 'b', 1) }}", ErrArgs, "bad arguments: jet: the right delimiter must be a string, got int"},
		{"{{ toJSON(lookup) }}", nil, "toJSON: json: unsupported type: func(...interface {}) (interface {}, error)"},
	}
	if os.Geteuid() == 0 {
		tests = append(tests, struct {
			in   string
			is   error
			want string
		}{"{{ readFile('link') }}", nil, "reading a file: refusing to follow symlink someone other than root controls"})
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := tm.String(tt.in)
			if want := "template " + tt.in + ": " + tt.want; err == nil || err.Error() != want {
				t.Fatalf("error %v\nwant  %q", err, want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Fatalf("error %v is not %v", err, tt.is)
			}
		})
	}
}

// TestErrorTextByDelimiter: the message shows the expression as written,
// with its delimiters, or quoted when it was written bare; only ${ with
// an unknown name suggests the $${ escape.
func TestErrorTextByDelimiter(t *testing.T) {
	tests := []struct {
		err  *ExprError
		want string
	}{
		{&ExprError{Expr: "HOME", Open: "${", Err: errors.New("unknown name HOME")},
			"template ${ HOME }: unknown name HOME; to pass a literal ${ on (a shell variable, say), write $${"},
		{&ExprError{Expr: "HOME", Open: "{{", Err: errors.New("unknown name HOME")}, "template {{ HOME }}: unknown name HOME"},
		{&ExprError{Expr: "x > 1", Err: errors.New("unknown name x")}, `expression "x > 1": unknown name x`},
		{&ExprError{Expr: "x", Open: "${", Ran: true, Err: errors.New(`bad "value"`)}, "template ${ x }: bad …"},
		{&ExprError{Expr: "x", Open: "${", Err: errors.New(`bad "text"`)}, `template ${ x }: bad "text"`},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("got  %q\nwant %q", got, tt.want)
		}
	}
}
