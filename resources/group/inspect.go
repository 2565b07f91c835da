package group

import (
	"context"
	"fmt"

	"github.com/reactive-ccm/ccm/resources/internal/accounts"
)

// metadata is what `ccm status group NAME` shows.
type metadata struct {
	Name     string   `json:"name" yaml:"name"`
	Ensure   string   `json:"ensure" yaml:"ensure"`
	GID      *int     `json:"gid,omitempty" yaml:"gid,omitempty"`
	Members  []string `json:"members,omitempty" yaml:"members,omitempty"`
	Provider string   `json:"provider" yaml:"provider"`
}

// inspect reads the group from /etc/group.
func inspect(_ context.Context, name string) (any, error) {
	if !accounts.ValidName.MatchString(name) {
		return nil, fmt.Errorf("%q is not a group name", name)
	}
	g, err := accounts.LookupGroup(name)
	if err != nil {
		return nil, err
	}
	md := metadata{Name: name, Ensure: Absent, Provider: providers[0].Name}
	if g != nil {
		md.Ensure, md.GID, md.Members = Present, &g.GID, g.Members
	}
	return md, nil
}
