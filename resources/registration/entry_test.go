package registration_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources/registration"
)

func web() *registration.Entry {
	return &registration.Entry{Cluster: "prod", Service: "web", Protocol: "tcp", Address: "10.0.0.1", Port: int64(8080), Priority: 1}
}

func TestSubjectIsUpstreams(t *testing.T) {
	// The id is the FNV-64a hash of "prod", "web", "tcp", "10.0.0.1" and
	// "8080" written one after the other, as upstream's InstanceId.
	const want = "choria.ccm.registration.v1.prod.tcp.web.10_0_0_1.37fd7630379a59f9"
	if got := web().Subject(); got != want {
		t.Fatalf("subject = %s, want %s", got, want)
	}
}

func TestInstanceIDDependsOnTheIdentityOnly(t *testing.T) {
	a, b := web(), web()
	b.Priority, b.Annotations, b.TTL = 9, map[string]string{"x": "y"}, registration.NewTTL(time.Minute)
	if a.InstanceID() != b.InstanceID() {
		t.Fatal("priority, annotations and ttl changed the instance id")
	}
	b.Port = int64(8081)
	if a.InstanceID() == b.InstanceID() {
		t.Fatal("another port has the same instance id")
	}
	b.Port = nil
	if a.InstanceID() == b.InstanceID() {
		t.Fatal("an entry without a port has the id of one with a port")
	}
}

func TestPayloadIsUpstreams(t *testing.T) {
	e := web()
	e.Annotations = map[string]string{"version": "1.2.3"}
	e.TTL = registration.NewTTL(10 * time.Minute)
	b, err := e.Payload()
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"cluster":"prod","service":"web","protocol":"tcp","address":"10.0.0.1","port":8080,"priority":1,"annotations":{"version":"1.2.3"},"ttl":"10m0s"}`
	if string(b) != want {
		t.Fatalf("payload\n got %s\nwant %s", b, want)
	}
	e.TTL, e.Annotations = nil, nil
	if b, _ = e.Payload(); string(b) != `{"cluster":"prod","service":"web","protocol":"tcp","address":"10.0.0.1","port":8080,"priority":1}` {
		t.Fatalf("payload without ttl and annotations: %s", b)
	}
}

func TestDecodeReadsUpstreamPayloads(t *testing.T) {
	for _, tc := range []struct {
		name, payload string
		port          any
		ttl           string
	}{
		{"ttl as a string", `{"cluster":"c","service":"s","protocol":"p","address":"10.0.0.1","port":80,"priority":1,"ttl":"10m0s"}`, int64(80), "10m0s"},
		{"ttl never", `{"cluster":"c","service":"s","protocol":"p","address":"10.0.0.1","port":80,"priority":1,"ttl":"never"}`, int64(80), "never"},
		{"ttl in nanoseconds, as older upstream writes it", `{"cluster":"c","service":"s","protocol":"p","address":"10.0.0.1","port":80,"priority":1,"ttl":30000000000}`, int64(80), "30s"},
		{"no port", `{"cluster":"c","service":"s","protocol":"p","address":"10.0.0.1","port":null,"priority":1}`, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := registration.Decode([]byte(tc.payload))
			if err != nil {
				t.Fatal(err)
			}
			if e.Port != tc.port || e.TTL.String() != tc.ttl {
				t.Fatalf("port %#v ttl %q", e.Port, e.TTL.String())
			}
		})
	}
	if _, err := registration.Decode([]byte(`{"port":80.5}`)); !errors.Is(err, registration.ErrInvalid) {
		t.Fatalf("a fractional port: %v", err)
	}
}

func TestValidateAppliesUpstreamsRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(e *registration.Entry)
		ok   bool
	}{
		{"valid", func(*registration.Entry) {}, true},
		{"ipv6 address", func(e *registration.Entry) { e.Address = "fd00::1" }, true},
		{"no port", func(e *registration.Entry) { e.Port = nil }, true},
		{"missing cluster", func(e *registration.Entry) { e.Cluster = "" }, false},
		{"cluster with a dot", func(e *registration.Entry) { e.Cluster = "a.b" }, false},
		{"protocol starting with a digit", func(e *registration.Entry) { e.Protocol = "1http" }, false},
		{"service wildcard", func(e *registration.Entry) { e.Service = "*" }, false},
		{"host name address", func(e *registration.Entry) { e.Address = "web1.example.net" }, false},
		{"port 0", func(e *registration.Entry) { e.Port = int64(0) }, false},
		{"port 65536", func(e *registration.Entry) { e.Port = int64(65536) }, false},
		{"priority 0", func(e *registration.Entry) { e.Priority = 0 }, false},
		{"priority 256", func(e *registration.Entry) { e.Priority = 256 }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := web()
			tc.edit(e)
			err := e.Validate()
			if tc.ok != (err == nil) {
				t.Fatalf("Validate() = %v", err)
			}
			if err != nil && !errors.Is(err, registration.ErrInvalid) {
				t.Fatalf("%v does not wrap ErrInvalid", err)
			}
		})
	}
}

func TestTTL(t *testing.T) {
	for in, want := range map[string]string{"never": "never", "90s": "1m30s", "10m": "10m0s", "1d": "24h0m0s", "2w": "336h0m0s"} {
		ttl, err := registration.ParseTTL(in)
		if err != nil || ttl.String() != want {
			t.Errorf("ParseTTL(%q) = %v, %v; want %s", in, ttl, err, want)
		}
	}
	for _, bad := range []string{"", "soon", "500ms", "-1m", "1.5d"} {
		if _, err := registration.ParseTTL(bad); !errors.Is(err, registration.ErrInvalid) {
			t.Errorf("ParseTTL(%q) = %v", bad, err)
		}
	}
	b, _ := json.Marshal(struct {
		T *registration.TTL `json:"ttl,omitempty"`
	}{})
	if string(b) != `{}` {
		t.Errorf("an unset ttl marshals as %s", b)
	}
}
