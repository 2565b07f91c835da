package user

import (
	"strconv"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/accounts"
)

// diff is one property that differs and the usermod arguments that set
// it; a password has none (chpasswd sets it).
type diff struct {
	resources.Difference
	args []string
}

// look reads the account and compares every managed property.
func (u *user) look() (*accounts.User, []diff, error) {
	have, err := accounts.LookupUser(u.name)
	if have == nil || err != nil || u.absent {
		return have, nil, err
	}
	var out []diff
	add := func(prop, observed, desired string, args ...string) {
		out = append(out, diff{resources.Differs(prop, observed, desired), args})
	}
	if u.uid != nil && *u.uid != have.UID {
		add("uid", strconv.Itoa(have.UID), strconv.Itoa(*u.uid), "--uid", strconv.Itoa(*u.uid))
	}
	if u.gid != "" {
		gid, ok, err := gidOf(u.gid)
		if err != nil {
			return nil, nil, err
		}
		if !ok || gid != have.GID {
			add("gid", strconv.Itoa(have.GID), u.gid, "--gid", u.gid)
		}
	}
	if u.groups != nil {
		d, err := u.compareGroups()
		if err != nil {
			return nil, nil, err
		}
		if d != nil {
			out = append(out, *d)
		}
	}
	out = append(out, u.compareFields(have)...)
	return have, out, nil
}

// compareFields compares home, shell, comment, expiry and password.
func (u *user) compareFields(have *accounts.User) []diff {
	var out []diff
	add := func(prop, observed, desired string, args ...string) {
		out = append(out, diff{resources.Differs(prop, observed, desired), args})
	}
	if u.home != "" && u.home != have.Home {
		args := []string{"--home", u.home}
		if u.manageHome {
			args = append(args, "--move-home")
		}
		add("home", have.Home, u.home, args...)
	}
	if u.shell != "" && u.shell != have.Shell {
		add("shell", have.Shell, u.shell, "--shell", u.shell)
	}
	if u.comment != nil && *u.comment != have.Comment {
		add("comment", have.Comment, *u.comment, "--comment", *u.comment)
	}
	if u.expiry != nil && *u.expiry != have.Expiry {
		date := ""
		if *u.expiry >= 0 {
			date = expiryDate(*u.expiry)
		}
		add("expiry", expiryDate(have.Expiry), expiryDate(*u.expiry), "--expiredate", date)
	}
	if u.password != nil && *u.password != have.Password {
		out = append(out, diff{Difference: resources.Difference{Property: "password", Observed: resources.Redacted, Desired: resources.Redacted, Content: true}})
	}
	return out
}

// compareGroups compares the supplementary groups; nil when in order.
func (u *user) compareGroups() (*diff, error) {
	have, err := accounts.GroupsOf(u.name)
	if err != nil {
		return nil, err
	}
	missing, extra := accounts.Membership(have, u.groups, u.exact)
	if len(missing) == 0 && len(extra) == 0 {
		return nil, nil
	}
	d := accounts.MembershipDifference("groups", have, missing, extra)
	args := []string{"--groups", strings.Join(u.groups, ",")}
	if !u.exact {
		args = []string{"--append", "--groups", strings.Join(missing, ",")}
	}
	return &diff{d, args}, nil
}
