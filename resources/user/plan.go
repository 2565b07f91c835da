package user

import (
	"strconv"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/accounts"
)

// plan lists the tool runs that bring the account from have (nil when
// missing), with diffs, to the wanted state.
func (u *user) plan(have *accounts.User, diffs []diff) []accounts.Step {
	switch {
	case have == nil && u.absent:
		return nil
	case u.absent:
		args := []string{u.name}
		if u.manageHome {
			args = []string{"--remove", u.name}
		}
		return []accounts.Step{{What: "removed the user", Tool: "userdel", Args: args}}
	case have == nil:
		return append([]accounts.Step{{What: "created the user", Tool: "useradd", Args: u.createArgs()}}, u.setPassword()...)
	}
	var args, props []string
	password := false
	for _, d := range diffs {
		if d.args == nil {
			password = true
			continue
		}
		args = append(args, d.args...)
		props = append(props, d.Property)
	}
	var steps []accounts.Step
	if len(args) > 0 {
		steps = append(steps, accounts.Step{What: "changed " + resources.JoinAnd(props), Tool: "usermod", Args: append(args, u.name)})
	}
	if password {
		steps = append(steps, u.setPassword()...)
	}
	return steps
}

// createArgs are useradd's arguments.
func (u *user) createArgs() []string {
	var args []string
	opt := func(flag, value string) { args = append(args, flag, value) }
	if u.uid != nil {
		opt("--uid", strconv.Itoa(*u.uid))
	}
	if u.gid != "" {
		opt("--gid", u.gid)
	}
	if len(u.groups) > 0 {
		opt("--groups", strings.Join(u.groups, ","))
	}
	if u.home != "" {
		opt("--home-dir", u.home)
	}
	if u.shell != "" {
		opt("--shell", u.shell)
	}
	if u.comment != nil {
		opt("--comment", *u.comment)
	}
	if u.expiry != nil && *u.expiry >= 0 {
		opt("--expiredate", expiryDate(*u.expiry))
	}
	if u.system {
		args = append(args, "--system")
	}
	if u.manageHome {
		args = append(args, "--create-home")
	} else {
		args = append(args, "--no-create-home")
	}
	return append(args, u.name)
}

// setPassword is the chpasswd run that sets the hash, given on its
// standard input so that no other process can read it.
func (u *user) setPassword() []accounts.Step {
	if u.password == nil {
		return nil
	}
	return []accounts.Step{{What: "set the password", Tool: "chpasswd", Args: []string{"--encrypted"}, Stdin: u.name + ":" + *u.password + "\n"}}
}
