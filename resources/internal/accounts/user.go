package accounts

import "strconv"

// User is a user as /etc/passwd and /etc/shadow hold it.
type User struct {
	Name     string
	UID, GID int
	Comment  string
	Home     string
	Shell    string
	// Password is the hash in /etc/shadow ("!" or "*" for none); empty
	// when the user has no shadow record.
	Password string
	// Expiry is the account's expiry in days since 1970-01-01; -1 for
	// none.
	Expiry int
}

// LookupUser returns the user called name; nil when there is none.
func LookupUser(name string) (*User, error) {
	r, err := find(Passwd, name, 7)
	if r == nil || err != nil {
		return nil, err
	}
	u := &User{Name: name, Comment: r[4], Home: r[5], Shell: r[6], Expiry: -1}
	if u.UID, err = number(Passwd, name, "the uid", r[2]); err != nil {
		return nil, err
	}
	if u.GID, err = number(Passwd, name, "the gid", r[3]); err != nil {
		return nil, err
	}
	s, err := find(Shadow, name, 8)
	if s == nil || err != nil {
		return u, err
	}
	u.Password = s[1]
	if s[7] != "" {
		if u.Expiry, err = strconv.Atoi(s[7]); err != nil {
			u.Expiry = -1
		}
	}
	return u, nil
}
