package graph_test

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources/registration"
)

// The web server node of upstream's registration docs, in the named-list
// form (the docs' map form is refused by upstream itself), with the
// address from a fact ccm and upstream gather.
const webNode = `
data:
  web_port: 8080
ccm:
  resources:
    - thing:
        - my-app:
            register_when_stable:
              - cluster: production
                service: web
                protocol: http
                address: "{{ Facts.network.default_ipv4 }}"
                port: "{{ Data.web_port }}"
                priority: 10
                ttl: 10m
                annotations:
                  hostname: "{{ Facts.hostname }}"
`

func TestRegisterWhenStableIsReadWithItsTemplates(t *testing.T) {
	d := graph.Data{Facts: map[string]any{"hostname": "web01", "network": map[string]any{"default_ipv4": "192.0.2.10"}}}
	g, err := graph.Load([]string{writeManifest(t, "m.yaml", webNode)}, d.Options())
	if err != nil {
		t.Fatal(err)
	}
	regs := g.Vertices[0].Registrations
	if len(regs) != 1 {
		t.Fatalf("registrations: %+v", regs)
	}
	r := regs[0]
	if r.Address != "192.0.2.10" || r.Port != int64(8080) || r.Priority != 10 || r.TTL.String() != "10m0s" || r.Annotations["hostname"] != "web01" {
		t.Fatalf("entry %+v", r)
	}
	if !strings.HasPrefix(r.Subject(), registration.SubjectPrefix+".production.http.web.192_0_2_10.") {
		t.Fatalf("subject %s", r.Subject())
	}
}

func TestBadRegistrationsAreRefusedAtTheirPosition(t *testing.T) {
	for _, tc := range []struct{ name, entry, want string }{
		{"not a list", "register_when_stable: {cluster: a}", "m.yaml:5:35: thing#a: register_when_stable: expected a list of entries"},
		{"unknown key", "register_when_stable: [{cluster: a, service: b, protocol: c, address: 10.0.0.1, priority: 1, weight: 3}]", `unknown property "weight"`},
		{"quoted port", `register_when_stable: [{cluster: a, service: b, protocol: c, address: 10.0.0.1, port: "80", priority: 1}]`, "port: expected an integer"},
		{"host name", "register_when_stable: [{cluster: a, service: b, protocol: c, address: web1, priority: 1}]", `m.yaml:5:36: thing#a: register_when_stable: item 1: registration is invalid: address "web1" is not an IP address`},
		{"no priority", "register_when_stable: [{cluster: a, service: b, protocol: c, address: 10.0.0.1}]", "priority 0 must be between 1 and 255"},
		{"bad ttl", "register_when_stable: [{cluster: a, service: b, protocol: c, address: 10.0.0.1, priority: 1, ttl: soon}]", `ttl "soon" is not never or a duration`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := loadErr(t, "ccm:\n  resources:\n    - thing:\n        - a:\n            "+tc.entry+"\n")
			if !strings.Contains(got, tc.want) {
				t.Fatalf("error %q\nwant %q", got, tc.want)
			}
		})
	}
}

// oneBackend is a registry holding entries, whatever the query.
type oneBackend struct{ entries registration.Entries }

func (r *oneBackend) Lookup(registration.Filter) (registration.Entries, error) { return r.entries, nil }

// TestRegistryReadAtLoadIsPartOfTheResource: a property resolved when the
// manifest loads from registrations() makes what the registry held part of
// the resource, so a reload after it changed replaces the resource; a
// deferred one is recorded for watch mode only.
func TestRegistryReadAtLoadIsPartOfTheResource(t *testing.T) {
	reg := &oneBackend{}
	d := graph.Data{Registry: reg}
	f := writeManifest(t, "m.yaml", `
- thing:
    - loaded:
        ensure: "{{ len(registrations('prod', 'http', 'web', '*')) }}"
    - plain: {}
`)
	load := func() *graph.Graph {
		g, err := graph.Load([]string{f}, d.Options())
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	before := load()
	if before.Vertices[0].Lookups.Loaded() == "" || before.Vertices[1].Lookups.Loaded() != "" {
		t.Fatal("the query made while loading was not recorded, or recorded for the wrong resource")
	}
	e := registration.Entry{Cluster: "prod", Service: "web", Protocol: "http", Address: "10.0.0.1", Port: int64(80), Priority: 1}
	if !before.Vertices[0].Lookups.Concerns(e.Subject()) {
		t.Fatal("the query does not concern the entries it selects")
	}
	reg.entries = registration.Entries{&e}
	after := load()
	if after.Vertices[0].Fingerprint == before.Vertices[0].Fingerprint {
		t.Fatal("a new registry content left the resource that read it unchanged")
	}
	if after.Vertices[1].Fingerprint != before.Vertices[1].Fingerprint {
		t.Fatal("a resource that read nothing changed")
	}
}
