package manager

import (
	"errors"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/command"
)

func TestCommandFailedSaysWhy(t *testing.T) {
	c := command.Cmd{Name: "apt-get", Args: []string{"install", "-y", "foo=9.9"}}
	tests := []struct {
		name string
		res  command.Result
		want string
	}{
		{
			name: "apt error lines win over warnings",
			res: command.Result{ExitCode: 100, Stderr: []byte(
				"debconf: delaying package configuration, since apt-utils is not installed\n" +
					"E: Version '9.9' for 'foo' was not found\n")},
			want: "package manager command failed: apt-get install -y foo=9.9 exited 100: E: Version '9.9' for 'foo' was not found",
		},
		{
			name: "dnf error lines",
			res: command.Result{ExitCode: 1, Stderr: []byte(
				"No match for argument: foo\nError: Unable to find a match: foo\n")},
			want: "package manager command failed: apt-get install -y foo=9.9 exited 1: Error: Unable to find a match: foo",
		},
		{
			name: "last lines of stderr without error lines",
			res:  command.Result{ExitCode: 2, Stderr: []byte("one\ntwo\nthree\nfour\n")},
			want: "package manager command failed: apt-get install -y foo=9.9 exited 2: two; three; four",
		},
		{
			name: "stdout when stderr is empty",
			res:  command.Result{ExitCode: 1, Stdout: []byte("package foo is not installed\n")},
			want: "package manager command failed: apt-get install -y foo=9.9 exited 1: package foo is not installed",
		},
		{
			name: "no output at all",
			res:  command.Result{ExitCode: 1},
			want: "package manager command failed: apt-get install -y foo=9.9 exited 1: no output",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CommandFailed(c, tt.res)
			if !errors.Is(err, ErrCommandFailed) {
				t.Errorf("error %v does not wrap ErrCommandFailed", err)
			}
			if err.Error() != tt.want {
				t.Errorf("error = %q\nwant    %q", err, tt.want)
			}
		})
	}
}
