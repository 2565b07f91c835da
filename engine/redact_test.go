package engine

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
)

// TestRedactHidesASensitiveVertexsValues: the values a sensitive resource
// resolved, and the digests of its content, appear nowhere in its event;
// what is not secret stays readable.
func TestRedactHidesASensitiveVertexsValues(t *testing.T) {
	secrets := &resources.Secrets{}
	secrets.Add("hunter22")
	content := resources.Difference{Property: "content", Observed: "sha256:aaaa1111", Desired: "sha256:bbbb2222", Note: "+1 −1 lines", Diff: "-old\n+hunter22\n", Content: true}
	owner := resources.Difference{Property: "owner", Observed: "nobody", Desired: "hunter22-svc", Note: "for hunter22", Diff: "x"}
	out := resources.Outcome{Before: resources.Status{Differences: []resources.Difference{content, owner}},
		After: resources.Status{Differences: []resources.Difference{content}}}
	ev := &Event{
		Changes:      []resources.Difference{content, owner},
		Error:        []string{"failed to reach desired state: content sha256:aaaa1111 → sha256:bbbb2222; password hunter22"},
		NoopMessage:  "Would have written hunter22",
		HealthChecks: []resources.HealthResult{{Name: "check hunter22", Output: "login hunter22 ok"}},
	}
	redact(ev, secrets, out)
	all := strings.Join([]string{ev.Changes[0].Observed, ev.Changes[0].Desired, ev.Changes[0].Note, ev.Changes[0].Diff,
		ev.Changes[1].Observed, ev.Changes[1].Desired, ev.Changes[1].Note, ev.Changes[1].Diff,
		ev.Error[0], ev.NoopMessage, ev.HealthChecks[0].Name, ev.HealthChecks[0].Output}, "\n")
	for _, secret := range []string{"hunter22", "aaaa1111", "bbbb2222", "+1 −1"} {
		if strings.Contains(all, secret) {
			t.Fatalf("%q shows in the event:\n%s", secret, all)
		}
	}
	if c := ev.Changes[0]; c.Observed != resources.Redacted || c.Desired != resources.Redacted || !c.Content {
		t.Fatalf("content difference %+v, want both values redacted", c)
	}
	if o := ev.Changes[1]; o.Property != "owner" || o.Observed != "nobody" || o.Desired != resources.Redacted+"-svc" || o.Diff != "" {
		t.Fatalf("owner difference %+v: what is not secret stays, the secret goes, no diff", o)
	}
	if !strings.HasPrefix(ev.Error[0], "failed to reach desired state: content "+resources.Redacted) {
		t.Fatalf("error %q", ev.Error[0])
	}
}
