package registration

import (
	"fmt"
	"strings"
)

// Wildcard in any position of a Filter matches every value.
const Wildcard = "*"

// Filter selects entries by cluster, protocol, service and address, as
// registrations() and `ccm registration query` take them; "" and "*"
// match anything.
type Filter struct {
	Cluster, Protocol, Service, Address string
}

// All is the filter that matches every entry.
var All = Filter{}

// Subject is the NATS filter subject of f; the instance token is always
// a wildcard.
func (f Filter) Subject() string {
	t := f.tokens()
	return fmt.Sprintf("%s.%s.%s.%s.%s.*", SubjectPrefix, t[0], t[1], t[2], t[3])
}

func (f Filter) tokens() [4]string {
	wild := func(s string) string {
		if s == "" {
			return Wildcard
		}
		return s
	}
	addr := wild(f.Address)
	if addr != Wildcard {
		addr = subjectAddress(addr)
	}
	return [4]string{wild(f.Cluster), wild(f.Protocol), wild(f.Service), addr}
}

// String is the filter as registrations() arguments: cluster, protocol,
// service, address.
func (f Filter) String() string {
	t := f.tokens()
	if f.Address != "" && f.Address != Wildcard {
		t[3] = f.Address
	}
	return strings.Join(t[:], ", ")
}

// Matches reports whether an entry published on subject is one f selects.
func (f Filter) Matches(subject string) bool {
	parts, ok := subjectTokens(subject)
	if !ok {
		return false
	}
	for i, want := range f.tokens() {
		if want != Wildcard && parts[i] != want {
			return false
		}
	}
	return true
}

// subjectTokens returns the cluster, protocol, service and address
// tokens of a registration subject.
func subjectTokens(subject string) ([4]string, bool) {
	rest, ok := strings.CutPrefix(subject, SubjectPrefix+".")
	parts := strings.Split(rest, ".")
	if !ok || len(parts) != 5 {
		return [4]string{}, false
	}
	return [4]string{parts[0], parts[1], parts[2], parts[3]}, true
}

// FromSubject returns what a subject says of its entry: cluster,
// protocol, service and address, as upstream's watch reports a removed
// entry. ok is false for a subject that is not a registration's.
func FromSubject(subject string) (e *Entry, ok bool) {
	t, ok := subjectTokens(subject)
	if !ok {
		return nil, false
	}
	return &Entry{Cluster: t[0], Protocol: t[1], Service: t[2], Address: strings.ReplaceAll(t[3], "_", ".")}, true
}
