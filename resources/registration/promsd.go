package registration

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// labelName is Prometheus's rule for a label name.
var labelName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// ScrapeAnnotation opts an entry in or out of PrometheusFileSD.
const ScrapeAnnotation = "prometheus.io/scrape"

type targetGroup struct {
	Labels  map[string]string `json:"labels"`
	Targets []string          `json:"targets"`
}

// PrometheusFileSD renders the entries as Prometheus file_sd JSON, as
// upstream does: one target group per cluster, service and protocol, in
// the order they first appear, each target ADDRESS:PORT. Entries without
// a port are left out. An entry whose service or protocol is
// "prometheus" is included unless its prometheus.io/scrape annotation
// says other than "true"; any other entry only when it says "true". The
// labels are cluster, service and protocol, and the first entry's
// annotations whose names are valid label names not starting with __ and
// whose values are not empty.
func (es Entries) PrometheusFileSD() (string, error) {
	type key struct{ cluster, service, protocol string }
	groups := map[key]*targetGroup{}
	var order []key
	for _, e := range es {
		port := e.PortNumber()
		if port == 0 || !scraped(e) {
			continue
		}
		k := key{e.Cluster, e.Service, e.Protocol}
		g, ok := groups[k]
		if !ok {
			g = &targetGroup{Labels: labels(e), Targets: []string{}}
			groups[k] = g
			order = append(order, k)
		}
		g.Targets = append(g.Targets, fmt.Sprintf("%s:%d", e.Address, port))
	}
	out := make([]targetGroup, 0, len(order))
	for _, k := range order {
		out = append(out, *groups[k])
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return "", fmt.Errorf("prometheus file_sd: %w", err)
	}
	return string(b), nil
}

// scraped says whether PrometheusFileSD includes e.
func scraped(e *Entry) bool {
	v, set := e.Annotations[ScrapeAnnotation]
	if e.Service == "prometheus" || e.Protocol == "prometheus" {
		return !set || v == "true"
	}
	return set && v == "true"
}

func labels(e *Entry) map[string]string {
	l := map[string]string{"cluster": e.Cluster, "service": e.Service, "protocol": e.Protocol}
	for k, v := range e.Annotations {
		if v != "" && !strings.HasPrefix(k, "__") && labelName.MatchString(k) {
			l[k] = v
		}
	}
	return l
}
