package accounts

// Group is a group as /etc/group holds it.
type Group struct {
	Name    string
	GID     int
	Members []string
}

// LookupGroup returns the group called name; nil when there is none.
func LookupGroup(name string) (*Group, error) {
	r, err := find(Groups, name, 4)
	if r == nil || err != nil {
		return nil, err
	}
	gid, err := number(Groups, name, "the gid", r[2])
	if err != nil {
		return nil, err
	}
	return &Group{Name: name, GID: gid, Members: list(r[3])}, nil
}

// GroupsOf returns the names of the groups that list user as a member.
func GroupsOf(user string) ([]string, error) {
	recs, err := records(Groups)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range recs {
		if len(r) < 4 {
			continue
		}
		for _, m := range list(r[3]) {
			if m == user {
				out = append(out, r[0])
				break
			}
		}
	}
	return out, nil
}
