package main

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func TestEnsureTypesBuiltWhenReachable(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{[]string{"run", "--json", "m.yaml"}, false},
		{[]string{"--log-level", "debug", "validate", "m.yaml"}, false},
		{[]string{"ensure", "file", "/tmp/x", "--ensure", "present"}, true},
		{[]string{"--log-level", "debug", "ensure", "file", "/tmp/x"}, true},
		{[]string{"ensure", "--noop", "file", "/tmp/x"}, true},
		{[]string{"help", "ensure", "file"}, true},
		{[]string{"__complete", "ensure", "fi"}, true},
		{[]string{"--help"}, true},
		{[]string{"ensur", "file"}, true},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			root := newRoot(tt.args)
			ensure, _, err := root.Find([]string{"ensure"})
			if err != nil {
				t.Fatal(err)
			}
			// Without its type commands, ensure has only `ensure api`.
			if got := len(ensure.Commands()) > 1; got != tt.want {
				t.Errorf("ensure's type commands built: %v, want %v", got, tt.want)
			}
		})
	}
}

// TestGroupsRefuseUnknownCommands: every command that groups others fails
// as unusable input (exit 2) naming its commands when given one it does
// not have, or none, so a typo in a script fails instead of printing help
// and exiting 0.
func TestGroupsRefuseUnknownCommands(t *testing.T) {
	var groups []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() && sub.HasAvailableSubCommands() {
				groups = append(groups, sub)
				walk(sub)
			}
		}
	}
	walk(newRoot(nil))
	if len(groups) < 8 {
		t.Fatalf("found %d command groups, want the 8 or more ccm has", len(groups))
	}
	for _, g := range groups {
		path := strings.Fields(g.CommandPath())[1:]
		t.Run(strings.Join(path, " "), func(t *testing.T) {
			if err := execute(append(path, "nosuch")); !unusable(err) || !strings.Contains(err.Error(), `unknown command "nosuch" for "`+g.CommandPath()+`"; its commands: `) {
				t.Errorf("with an unknown command: %v; want unusable input naming its commands", err)
			}
			if err := execute(path); !unusable(err) || !strings.Contains(err.Error(), "needs a subcommand: ") {
				t.Errorf("alone: %v; want unusable input naming its commands", err)
			}
		})
	}
}

// execute runs ccm's command line on args in the test's process, its
// output discarded, and returns what main would report.
func execute(args []string) error {
	root := newRoot(args)
	root.SetArgs(args)
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	return root.Execute()
}

// unusable reports whether main exits 2 for err.
func unusable(err error) bool {
	var ee *exitError
	return err != nil && (!errors.As(err, &ee) || ee.code == exitBadArgs)
}
