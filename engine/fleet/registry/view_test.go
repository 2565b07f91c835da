package registry_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine/fleet/registry"
	"github.com/reactive-ccm/ccm/resources/registration"
)

func TestFilterArgs(t *testing.T) {
	for _, c := range []struct {
		args []string
		want registration.Filter
	}{
		{nil, registration.Filter{Cluster: "*", Protocol: "*", Service: "*", Address: "*"}},
		{[]string{"dc1"}, registration.Filter{Cluster: "dc1", Protocol: "*", Service: "*", Address: "*"}},
		{[]string{"dc1", "http", "web", "10.0.0.1"}, registration.Filter{Cluster: "dc1", Protocol: "http", Service: "web", Address: "10.0.0.1"}},
	} {
		if got := registry.FilterArgs(c.args); got != c.want {
			t.Errorf("FilterArgs(%q) = %+v, want %+v", c.args, got, c.want)
		}
	}
}

func TestPrintEntries(t *testing.T) {
	var b bytes.Buffer
	if err := registry.PrintEntries(&b, nil); err != nil || b.String() != "No results found\n" {
		t.Fatalf("no entries: %q, %v", b.String(), err)
	}
	entry := func(cluster, protocol, service, addr string) *registration.Entry {
		return &registration.Entry{Cluster: cluster, Protocol: protocol, Service: service, Address: addr, Port: int64(80), Priority: 1}
	}
	web2 := entry("dc1", "http", "web", "10.0.0.2")
	web2.Annotations = map[string]string{"zone": "b", "rack": "7"}
	b.Reset()
	err := registry.PrintEntries(&b, registration.Entries{entry("dc2", "http", "web", "10.1.0.1"), web2, entry("dc1", "http", "api", "10.0.0.3"), entry("dc1", "http", "web", "10.0.0.1")})
	if err != nil {
		t.Fatal(err)
	}
	want := `Service: api @ dc1

       Cluster: dc1
      Protocol: http
       Service: api
       Address: 10.0.0.3
          Port: 80
      Priority: 1

Service: web @ dc1

       Cluster: dc1
      Protocol: http
       Service: web
       Address: 10.0.0.2
          Port: 80
      Priority: 1
   Annotations:
                rack: 7
                zone: b

       Cluster: dc1
      Protocol: http
       Service: web
       Address: 10.0.0.1
          Port: 80
      Priority: 1

Service: web @ dc2

       Cluster: dc2
      Protocol: http
       Service: web
       Address: 10.1.0.1
          Port: 80
      Priority: 1

`
	if b.String() != want {
		t.Fatalf("PrintEntries wrote:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestEventsAsWatchShowsThem(t *testing.T) {
	ttl, err := registration.ParseTTL("30s")
	if err != nil {
		t.Fatal(err)
	}
	e := &registration.Entry{Cluster: "dc1", Protocol: "http", Service: "web", Address: "10.0.0.1", Port: int64(80), TTL: ttl}
	for _, c := range []struct {
		ev        registry.Event
		json, log string
	}{
		{registry.Event{Action: registry.Register, Entry: e},
			`{"action":"register","entry":{`,
			`level=INFO msg="Updated entry" cluster=dc1 service=web protocol=http address=10.0.0.1 port=80 ttl=30s`},
		{registry.Event{Action: registry.Remove, Entry: e, Reason: "MaxAge"},
			`"reason":"MaxAge"}`,
			`level=WARN msg="Removed entry" cluster=dc1 service=web protocol=http address=10.0.0.1 reason=MaxAge`},
	} {
		b, err := json.Marshal(c.ev)
		if err != nil || !strings.Contains(string(b), c.json) || !strings.Contains(string(b), `"address":"10.0.0.1"`) {
			t.Errorf("%s as JSON: %s, %v; want it to hold %s", c.ev.Action, b, err, c.json)
		}
		var out bytes.Buffer
		log := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}}))
		c.ev.Log(log)
		if got := strings.TrimSpace(out.String()); got != c.log {
			t.Errorf("%s logged %q, want %q", c.ev.Action, got, c.log)
		}
	}
}
