package registration_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/registration"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// parse reads src, a register_when_stable list, as a file resource's.
func parse(t *testing.T, src string) ([]registration.Entry, error) {
	t.Helper()
	spec := &resources.Spec{Type: "file", Name: "/etc/motd", Pos: resources.Pos{File: "m.yaml", Line: 1, Col: 1}, Templates: resources.Literal{}}
	return registration.Parse(spec, resourcetest.YAMLNode(t, src))
}

func TestParse(t *testing.T) {
	got, err := parse(t, `
- cluster: prod
  service: web
  protocol: http
  address: 10.0.0.1
  port: 8080
  priority: 5
  ttl: 1d
  annotations: {version: "1.2"}
- {cluster: prod, service: dns, protocol: udp, address: "fd00::1", priority: 1, ttl: never}
`)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, e := range got {
		b, err := e.Payload()
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	want := `{"cluster":"prod","service":"web","protocol":"http","address":"10.0.0.1","port":8080,"priority":5,"annotations":{"version":"1.2"},"ttl":"24h0m0s"}` + "\n" +
		`{"cluster":"prod","service":"dns","protocol":"udp","address":"fd00::1","port":null,"priority":1,"ttl":"never"}`
	if g := strings.Join(lines, "\n"); g != want {
		t.Errorf("entries\n%s\nwant\n%s", g, want)
	}
	if got, err := parse(t, "~"); got != nil || err != nil {
		t.Errorf("null list: %v, %v", got, err)
	}
}

// TestParseErrors: every bad entry is reported, each at its position,
// with the rule it breaks.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"not a list", "cluster: prod", "m.yaml:1:1: file#/etc/motd: register_when_stable: expected a list of entries"},
		{"not a map", "- prod", "m.yaml:1:3: file#/etc/motd: register_when_stable: item 1: registration is invalid: expected a map with cluster, service, protocol, address, port and priority"},
		{"unknown key", "- {cluster: c, service: s, protocol: p, address: 10.0.0.1, priority: 1, prio: 2}", `unknown property "prio"`},
		{"missing service", "- {cluster: c, protocol: p, address: 10.0.0.1, priority: 1}", "item 1: registration is invalid: service is required"},
		{"bad name", "- {cluster: c.d, service: s, protocol: p, address: 10.0.0.1, priority: 1}", `cluster "c.d" is not a valid name (a letter, then letters, digits, _ and -)`},
		{"no address", "- {cluster: c, service: s, protocol: p, priority: 1}", "address is required"},
		{"host name", "- {cluster: c, service: s, protocol: p, address: web1, priority: 1}", `address "web1" is not an IP address`},
		{"port", "- {cluster: c, service: s, protocol: p, address: 10.0.0.1, port: 70000, priority: 1}", "port 70000 must be between 1 and 65535"},
		{"no priority", "- {cluster: c, service: s, protocol: p, address: 10.0.0.1}", "priority 0 must be between 1 and 255"},
		{"ttl", "- {cluster: c, service: s, protocol: p, address: 10.0.0.1, priority: 1, ttl: soon}", `ttl "soon" is not never or a duration of at least 1s`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := parse(t, c.src)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
	_, err := parse(t, "- {cluster: c, service: s, protocol: p, address: 10.0.0.1, priority: 1}\n- {cluster: c}\n- {cluster: c, service: s, protocol: p, address: x, priority: 1}")
	var list resources.ErrorList
	if !errors.As(err, &list) || len(list) != 2 || list[0].Pos.Line != 2 || list[1].Pos.Line != 3 || !strings.Contains(list[1].Msg, "item 3:") {
		t.Errorf("two bad entries: %v", err)
	}
}

// TestDigestFollowsEntriesAndOrder: a lookup's digest changes with any
// entry's payload and with their order.
func TestDigestFollowsEntriesAndOrder(t *testing.T) {
	a, b := web(), web()
	b.Address = "10.0.0.2"
	d := registration.Entries{a, b}.Digest()
	if d2 := (registration.Entries{a, b}).Digest(); d2 != d || len(d) != 64 {
		t.Errorf("digest %q then %q", d, d2)
	}
	if (registration.Entries{b, a}).Digest() == d {
		t.Error("the order does not change the digest")
	}
	c := web()
	c.Priority = 2
	if (registration.Entries{c, b}).Digest() == d {
		t.Error("a priority does not change the digest")
	}
	if (registration.Entries{}).Digest() == (registration.Entries{a}).Digest() {
		t.Error("no entries digest as one")
	}
}

// TestPortNumber reads the port whatever number type decoding gave it.
func TestPortNumber(t *testing.T) {
	for _, c := range []struct {
		port any
		want int64
	}{{int64(80), 80}, {int(81), 81}, {float64(82), 82}, {json.Number("84"), 84}, {json.Number("x"), 0}, {nil, 0}, {"83", 0}} {
		e := &registration.Entry{Port: c.port}
		if got := e.PortNumber(); got != c.want {
			t.Errorf("port %#v: %d, want %d", c.port, got, c.want)
		}
	}
}

func TestFilterString(t *testing.T) {
	for _, c := range []struct {
		f    registration.Filter
		want string
	}{
		{registration.All, "*, *, *, *"},
		{registration.Filter{Cluster: "prod", Service: "web", Address: "10.0.0.1"}, "prod, *, web, 10.0.0.1"},
		{registration.Filter{Protocol: "http", Address: "*"}, "*, http, *, *"},
	} {
		if got := c.f.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.f, got, c.want)
		}
	}
}

// TestTTLEncodings: the payload's ttl as upstream writes and reads it,
// and the header's value.
func TestTTLEncodings(t *testing.T) {
	var none *registration.TTL
	if none.String() != "" || none.Duration() != 0 || none.IsNever() {
		t.Errorf("no ttl: %q %s %v", none.String(), none.Duration(), none.IsNever())
	}
	never, _ := registration.ParseTTL(" never ")
	if !never.IsNever() || never.Duration() != 0 || never.String() != "never" {
		t.Errorf("never: %v %s %q", never.IsNever(), never.Duration(), never.String())
	}
	if d := registration.NewTTL(90e9).Duration(); d != 90e9 {
		t.Errorf("duration %s", d)
	}
	if d, _ := registration.ParseTTL("1w"); d.Duration() != 7*24*time.Hour || d.IsNever() {
		t.Errorf("1w: %s", d.Duration())
	}
	for _, c := range []struct {
		ttl  registration.TTL
		json string
	}{
		{*registration.NewTTL(90e9), `"1m30s"`},
		{*never, `"never"`},
		{registration.TTL{}, `null`},
	} {
		b, err := c.ttl.MarshalJSON()
		if err != nil || string(b) != c.json {
			t.Errorf("%v marshals as %s, %v; want %s", c.ttl, b, err, c.json)
		}
		y, _ := c.ttl.MarshalYAML()
		if want := strings.Trim(c.json, `"`); c.json != "null" && y != want {
			t.Errorf("%v as YAML %v, want %s", c.ttl, y, want)
		}
	}
	for _, bad := range []string{`{"ttl":true}`, `{"ttl":"soon"}`} {
		if _, err := registration.Decode([]byte(bad)); !errors.Is(err, registration.ErrInvalid) {
			t.Errorf("decoding %s: %v, want ErrInvalid", bad, err)
		}
	}
	var ttl registration.TTL
	if err := ttl.UnmarshalJSON([]byte("true")); !errors.Is(err, registration.ErrInvalid) || !strings.Contains(err.Error(), "ttl: ") {
		t.Errorf("a ttl neither string nor number: %v", err)
	}
	if _, err := registration.Decode([]byte(`{"port":"80"}`)); err == nil || !strings.Contains(err.Error(), "port 80 is not an integer") {
		t.Errorf("a port as a string: %v", err)
	}
	if _, err := registration.Decode([]byte(`not json`)); !errors.Is(err, registration.ErrInvalid) {
		t.Errorf("not JSON: %v", err)
	}
}
