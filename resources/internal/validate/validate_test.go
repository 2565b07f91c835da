package validate_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/resources/internal/validate"
)

func TestParse(t *testing.T) {
	tests := []struct {
		line string
		want error
		msg  string
	}{
		{line: "visudo -cf %s"},
		{line: "sh -c 'test -s \"$1\"' check --file=%s"},
		{line: "visudo -cf /etc/sudoers", want: validate.ErrNoPlaceholder},
		{line: "   ", want: command.ErrEmpty},
		{line: "sh -c 'unclosed %s", msg: "cannot be split into words: Unterminated single-quoted string"},
	}
	for _, tt := range tests {
		_, err := validate.Parse(tt.line)
		switch {
		case tt.msg != "":
			if err == nil || err.Error() != tt.msg {
				t.Errorf("Parse(%q) = %v, want %q", tt.line, err, tt.msg)
			}
		case !errors.Is(err, tt.want) || (err == nil) != (tt.want == nil):
			t.Errorf("Parse(%q) = %v, want %v", tt.line, err, tt.want)
		}
	}
}

// content is an open file holding text, as the file resource stages it.
func content(t *testing.T, text string) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "staged")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestRun(t *testing.T) {
	long := strings.Repeat("x", 3000)
	tests := []struct {
		name, line, text string
		quiet            bool
		refused          bool
		want             string
	}{
		{name: "accepted", line: "grep -q ^port= %s", text: "port=80\n"},
		{name: "the placeholder inside a word", line: "sh -c 'grep -q port \"${1#--file=}\"' sh --file=%s", text: "port=80\n"},
		{name: "refused with the checker's output", line: "sh -c 'echo \"bad line 3\" >&2; exit 1' sh %s", text: "x",
			refused: true, want: `validate refused the new content: "sh -c 'echo \"bad line 3\" >&2; exit 1' sh %s" exited with code 1: bad line 3`},
		{name: "stderr before stdout", line: "sh -c 'echo out; echo err >&2; exit 2' sh %s", text: "x",
			refused: true, want: "exited with code 2: err\nout"},
		{name: "a sensitive resource's refusal leaves the output out", line: "sh -c 'cat \"$1\"; exit 1' sh %s", text: "hunter2", quiet: true,
			refused: true, want: `validate refused the new content: "sh -c 'cat \"$1\"; exit 1' sh %s" exited with code 1 (output not shown: the resource is sensitive)`},
		{name: "long output is cut", line: "sh -c 'cat \"$1\"; exit 1' sh %s", text: long,
			refused: true, want: "exited with code 1: " + long[:2048] + "…"},
		{name: "a checker that cannot run", line: "ccm-no-such-checker %s",
			want: `validate "ccm-no-such-checker %s": ccm-no-such-checker: executable not found in ` + command.DefaultPath},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := validate.Parse(tt.line)
			if err != nil {
				t.Fatal(err)
			}
			if tt.quiet {
				c = c.Quiet()
			}
			err = c.Run(t.Context(), content(t, tt.text))
			if errors.Is(err, validate.ErrRefused) != tt.refused {
				t.Fatalf("error %v, refused %v", err, tt.refused)
			}
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.HasSuffix(err.Error(), tt.want)) {
				t.Fatalf("error %.300v, want %.300q", err, tt.want)
			}
			if tt.quiet && strings.Contains(err.Error(), tt.text) {
				t.Fatalf("the refusal %q shows the content", err)
			}
		})
	}
}
