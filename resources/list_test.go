package resources_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"go.yaml.in/yaml/v3"
)

func TestParseList(t *testing.T) {
	one := func(_ *resources.Spec, n *yaml.Node) (string, error) {
		if n.Value == "bad" {
			return "", errors.New("not wanted")
		}
		return n.Value, nil
	}
	tests := []struct {
		name, src string
		want      []string
		err       string
	}{
		{"null", "~", nil, ""},
		{"items", "[a, b]", []string{"a", "b"}, ""},
		{"not a list", "a", nil, "t.yaml:1:1: t#n: things: expected a list of items"},
		{"every bad item", "[bad, a, bad]", []string{"a"}, "t.yaml:1:2: t#n: things: item 1: not wanted\nt.yaml:1:10: t#n: things: item 3: not wanted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(tt.src), &doc); err != nil {
				t.Fatal(err)
			}
			spec := &resources.Spec{Type: "t", Name: "n", Pos: resources.Pos{File: "t.yaml", Line: 1, Col: 1}}
			got, err := resources.ParseList(spec, doc.Content[0], "things", "items", one)
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			if msg != tt.err || (err == nil && !slices.Equal(got, tt.want)) {
				t.Errorf("got %q, %q; want %q, %q", got, msg, tt.want, tt.err)
			}
		})
	}
}
