package registration_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/reactive-ccm/ccm/resources/registration"
)

type group struct {
	Labels  map[string]string `json:"labels"`
	Targets []string          `json:"targets"`
}

func fileSD(t *testing.T, es registration.Entries) []group {
	t.Helper()
	s, err := es.PrometheusFileSD()
	if err != nil {
		t.Fatal(err)
	}
	var out []group
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
	return out
}

func entry(cluster, service, protocol, addr string, port any, ann map[string]string) *registration.Entry {
	return &registration.Entry{Cluster: cluster, Service: service, Protocol: protocol, Address: addr, Port: port, Priority: 1, Annotations: ann}
}

func TestPrometheusFileSD(t *testing.T) {
	scrape := map[string]string{"prometheus.io/scrape": "true", "team": "ops", "__hidden": "x", "bad-label": "y", "empty": ""}
	got := fileSD(t, registration.Entries{
		entry("dev", "prometheus", "tcp", "10.0.0.1", int64(8080), nil),
		entry("dev", "prometheus", "tcp", "10.0.0.2", int64(9090), nil),
		entry("dev", "prometheus", "tcp", "10.0.0.3", int64(9090), map[string]string{"prometheus.io/scrape": "false"}),
		entry("dev", "web", "http", "10.0.0.4", int64(80), nil),
		entry("dev", "web", "http", "10.0.0.5", int64(80), scrape),
		entry("dev", "web", "http", "10.0.0.6", nil, scrape),
		entry("dev", "db", "prometheus", "10.0.0.7", int64(5432), nil),
	})
	want := []group{
		{Labels: map[string]string{"cluster": "dev", "service": "prometheus", "protocol": "tcp"}, Targets: []string{"10.0.0.1:8080", "10.0.0.2:9090"}},
		{Labels: map[string]string{"cluster": "dev", "service": "web", "protocol": "http", "team": "ops"}, Targets: []string{"10.0.0.5:80"}},
		{Labels: map[string]string{"cluster": "dev", "service": "db", "protocol": "prometheus"}, Targets: []string{"10.0.0.7:5432"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	if s, _ := (registration.Entries{}).PrometheusFileSD(); s != "[]" {
		t.Fatalf("no entries: %q", s)
	}
}

// TestPrometheusFileSDLabelsFromTheFirstEntry: a group's labels are its
// first entry's; a later entry's annotations add none, and its targets
// keep the entries' order.
func TestPrometheusFileSDLabelsFromTheFirstEntry(t *testing.T) {
	got := fileSD(t, registration.Entries{
		entry("dev", "prometheus", "tcp", "10.0.0.2", int64(9100), map[string]string{"rack": "a"}),
		entry("dev", "prometheus", "tcp", "10.0.0.3", int64(9100), map[string]string{"rack": "b", "row": "1"}),
		entry("dev", "prometheus", "tcp", "10.0.0.1", int(9100), nil),
	})
	want := []group{{Labels: map[string]string{"cluster": "dev", "service": "prometheus", "protocol": "tcp", "rack": "a"},
		Targets: []string{"10.0.0.2:9100", "10.0.0.3:9100", "10.0.0.1:9100"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}
