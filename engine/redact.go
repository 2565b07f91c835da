package engine

import (
	"strings"

	"github.com/reactive-ccm/ccm/resources"
)

// redact hides a sensitive vertex's values in its event: the values of
// differences derived from content (digests, line counts, diffs), and
// every value the resource resolved, wherever they appear in its changes,
// errors, noop message and health checks' names and output.
func redact(ev *Event, secrets *resources.Secrets, out resources.Outcome) {
	// The digests also appear in ErrDesiredStateFailed's message, built
	// from the check after the apply.
	var digests []string
	for _, st := range []resources.Status{out.Before, out.After} {
		for _, d := range st.Differences {
			if d.Content {
				digests = append(digests, d.Observed, d.Desired)
			}
		}
	}
	hide := func(s string) string {
		for _, v := range digests {
			if v != "" {
				s = strings.ReplaceAll(s, v, resources.Redacted)
			}
		}
		return secrets.Redact(s)
	}
	for i, d := range ev.Changes {
		if d.Content {
			ev.Changes[i] = resources.Difference{Property: d.Property, Observed: resources.Redacted, Desired: resources.Redacted, Content: true}
			continue
		}
		ev.Changes[i].Observed, ev.Changes[i].Desired, ev.Changes[i].Note = hide(d.Observed), hide(d.Desired), hide(d.Note)
		ev.Changes[i].Diff = ""
	}
	for i, msg := range ev.Error {
		ev.Error[i] = hide(msg)
	}
	ev.NoopMessage = hide(ev.NoopMessage)
	for i, r := range ev.HealthChecks {
		ev.HealthChecks[i].Name, ev.HealthChecks[i].Output = hide(r.Name), hide(r.Output)
	}
}
