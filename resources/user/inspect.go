package user

import (
	"context"
	"fmt"
	"strings"

	"github.com/reactive-ccm/ccm/resources/internal/accounts"
)

// metadata is what `ccm status user NAME` shows. The password hash is
// never shown, only whether one is set.
type metadata struct {
	Name     string   `json:"name" yaml:"name"`
	Ensure   string   `json:"ensure" yaml:"ensure"`
	UID      *int     `json:"uid,omitempty" yaml:"uid,omitempty"`
	GID      *int     `json:"gid,omitempty" yaml:"gid,omitempty"`
	Groups   []string `json:"groups,omitempty" yaml:"groups,omitempty"`
	Home     string   `json:"home,omitempty" yaml:"home,omitempty"`
	Shell    string   `json:"shell,omitempty" yaml:"shell,omitempty"`
	Comment  string   `json:"comment,omitempty" yaml:"comment,omitempty"`
	Password string   `json:"password,omitempty" yaml:"password,omitempty"`
	Expiry   string   `json:"expiry,omitempty" yaml:"expiry,omitempty"`
	Provider string   `json:"provider" yaml:"provider"`
}

// inspect reads the account from the databases.
func inspect(_ context.Context, name string) (any, error) {
	if !accounts.ValidName.MatchString(name) {
		return nil, fmt.Errorf("%q is not a user name", name)
	}
	u, err := accounts.LookupUser(name)
	if err != nil {
		return nil, err
	}
	md := metadata{Name: name, Ensure: Absent, Provider: providers[0].Name}
	if u == nil {
		return md, nil
	}
	if md.Groups, err = accounts.GroupsOf(name); err != nil {
		return nil, err
	}
	md.Ensure, md.UID, md.GID, md.Home, md.Shell, md.Comment = Present, &u.UID, &u.GID, u.Home, u.Shell, u.Comment
	md.Password, md.Expiry = passwordState(u.Password), expiryDate(u.Expiry)
	return md, nil
}

// passwordState says what the password field holds without showing it.
func passwordState(hash string) string {
	switch {
	case hash == "":
		return "none"
	case strings.HasPrefix(hash, "!") || hash == "*":
		return "locked"
	}
	return "set"
}
