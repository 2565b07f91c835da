package main

import (
	"strings"
	"testing"
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
