package registry

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sort"

	"github.com/reactive-ccm/ccm/resources/registration"
)

// FilterArgs reads the positional CLUSTER PROTOCOL SERVICE ADDRESS of
// `ccm registration query|watch`, each "*" when left out.
func FilterArgs(args []string) registration.Filter {
	f := [4]string{"*", "*", "*", "*"}
	copy(f[:], args)
	return registration.Filter{Cluster: f[0], Protocol: f[1], Service: f[2], Address: f[3]}
}

// PrintEntries lists entries as upstream's query does: sorted by
// cluster, protocol and service, under a heading per service.
func PrintEntries(w io.Writer, res registration.Entries) error {
	if len(res) == 0 {
		_, err := fmt.Fprintln(w, "No results found")
		return err
	}
	sort.SliceStable(res, func(i, j int) bool {
		a, b := res[i], res[j]
		if a.Cluster != b.Cluster {
			return a.Cluster < b.Cluster
		}
		if a.Protocol != b.Protocol {
			return a.Protocol < b.Protocol
		}
		return a.Service < b.Service
	})
	bw := bufio.NewWriter(w)
	var cluster, service string
	for _, r := range res {
		if cluster != r.Cluster || service != r.Service {
			cluster, service = r.Cluster, r.Service
			fmt.Fprintf(bw, "Service: %s @ %s\n\n", r.Service, r.Cluster)
		}
		printEntry(bw, r)
	}
	return bw.Flush()
}

func printEntry(w io.Writer, r *registration.Entry) {
	fmt.Fprintf(w, "       Cluster: %s\n      Protocol: %s\n       Service: %s\n       Address: %s\n", r.Cluster, r.Protocol, r.Service, r.Address)
	fmt.Fprintf(w, "          Port: %v\n      Priority: %d\n", r.Port, r.Priority)
	if len(r.Annotations) > 0 {
		fmt.Fprintln(w, "   Annotations:")
		keys := make([]string, 0, len(r.Annotations))
		for k := range r.Annotations {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(w, "                %s: %s\n", k, r.Annotations[k])
		}
	}
	fmt.Fprintln(w)
}

// MarshalJSON writes ev as `registration watch --json` prints it: its
// action, entry and reason.
func (ev Event) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Action string              `json:"action"`
		Entry  *registration.Entry `json:"entry"`
		Reason string              `json:"reason,omitempty"`
	}{ev.Action.String(), ev.Entry, ev.Reason})
}

// Log writes ev as upstream's watch logs it.
func (ev Event) Log(log *slog.Logger) {
	e := ev.Entry
	if ev.Action == Remove {
		log.Warn("Removed entry", "cluster", e.Cluster, "service", e.Service, "protocol", e.Protocol, "address", e.Address, "reason", ev.Reason)
		return
	}
	attrs := []any{"cluster", e.Cluster, "service", e.Service, "protocol", e.Protocol, "address", e.Address, "port", e.Port}
	if e.TTL != nil {
		attrs = append(attrs, "ttl", e.TTL.String())
	}
	log.Info("Updated entry", attrs...)
}
