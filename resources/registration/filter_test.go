package registration_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/resources/registration"
)

func TestFilterSubject(t *testing.T) {
	for _, tc := range []struct {
		f    registration.Filter
		want string
	}{
		{registration.All, "choria.ccm.registration.v1.*.*.*.*.*"},
		{registration.Filter{Cluster: "production", Protocol: "http", Service: "web", Address: "*"}, "choria.ccm.registration.v1.production.http.web.*.*"},
		{registration.Filter{Cluster: "*", Address: "10.0.0.1"}, "choria.ccm.registration.v1.*.*.*.10_0_0_1.*"},
	} {
		if got := tc.f.Subject(); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.f, got, tc.want)
		}
	}
}

func TestFilterMatches(t *testing.T) {
	subject := web().Subject()
	for _, tc := range []struct {
		f    registration.Filter
		want bool
	}{
		{registration.All, true},
		{registration.Filter{Cluster: "prod", Protocol: "tcp", Service: "web", Address: "10.0.0.1"}, true},
		{registration.Filter{Cluster: "prod", Protocol: "*", Service: "*", Address: "*"}, true},
		{registration.Filter{Cluster: "dev"}, false},
		{registration.Filter{Service: "db"}, false},
		{registration.Filter{Address: "10.0.0.2"}, false},
	} {
		if got := tc.f.Matches(subject); got != tc.want {
			t.Errorf("%+v matches %s: %t", tc.f, subject, got)
		}
	}
	if registration.All.Matches("choria.ccm.registration.v1.prod.tcp.web") {
		t.Error("a short subject matched")
	}
}

func TestFromSubject(t *testing.T) {
	e, ok := registration.FromSubject(web().Subject())
	if !ok || e.Cluster != "prod" || e.Protocol != "tcp" || e.Service != "web" || e.Address != "10.0.0.1" {
		t.Fatalf("FromSubject = %+v, %t", e, ok)
	}
	if _, ok := registration.FromSubject("ccm.events.host"); ok {
		t.Fatal("another subject was read as a registration's")
	}
}

// TestIPv6Subjects: an IPv6 address keeps its colons in the subject, as
// upstream's does, a filter on it matches, and FromSubject reads it back.
func TestIPv6Subjects(t *testing.T) {
	e := web()
	e.Address = "fd00::1"
	subject := e.Subject()
	if want := "choria.ccm.registration.v1.prod.tcp.web.fd00::1." + e.InstanceID(); subject != want {
		t.Fatalf("subject %s, want %s", subject, want)
	}
	f := registration.Filter{Address: "fd00::1"}
	if !f.Matches(subject) || f.Subject() != "choria.ccm.registration.v1.*.*.*.fd00::1.*" {
		t.Errorf("filter %s does not select %s", f.Subject(), subject)
	}
	if back, ok := registration.FromSubject(subject); !ok || back.Address != "fd00::1" {
		t.Errorf("FromSubject = %+v, %v", back, ok)
	}
	if (registration.Filter{Address: "10.0.0.1"}).Matches(subject) {
		t.Error("an IPv4 filter selected an IPv6 entry")
	}
	if _, ok := registration.FromSubject("choria.ccm.registration.v1.a.b.c.d.e.f"); ok {
		t.Error("a subject with a token too many was read")
	}
}
