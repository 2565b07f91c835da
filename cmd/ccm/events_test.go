package main_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// corpusEvents is upstream CCM's recorded `ccm ensure api pipe` answers,
// beside the repository as CI has it.
const corpusEvents = "../../../shared/upstream-corpus/events"

// stableFields are the event fields that do not vary between runs, as
// the corpus's check_events.py compares them.
var stableFields = []string{"protocol", "type", "provider", "name", "alias", "requested_ensure", "final_ensure", "changed",
	"refreshed", "failed", "skipped", "noop", "noop_message", "error", "unmet_requirements"}

// eventScenario is one of the corpus's: a request, run runs times.
type eventScenario struct {
	id, typ string
	props   map[string]any
	noop    bool
	runs    int
}

func eventScenarios(t *testing.T) []eventScenario {
	owner, group := me(t)
	file := func(name string) map[string]any {
		return map[string]any{"name": name, "ensure": "present", "content": "x", "owner": owner, "group": group, "mode": "0644"}
	}
	return []eventScenario{
		{"file-create", "file", file("f.txt"), false, 1},
		{"file-stable", "file", file("f.txt"), false, 2},
		{"file-noop", "file", file("n.txt"), true, 1},
		{"exec-alias-noop", "exec", map[string]any{"name": "/bin/echo hi", "alias": "hello"}, true, 1},
		{"exec-ok", "exec", map[string]any{"name": "/bin/true"}, false, 1},
		{"exec-fail", "exec", map[string]any{"name": "/bin/false"}, false, 1},
		{"exec-creates", "exec", map[string]any{"name": "/bin/true", "creates": "/"}, false, 1},
	}
}

// allowed reads the corpus allowlist's event entries: deliberate
// differences docs/upstream.md documents.
func allowed(t *testing.T) map[string]bool {
	f, err := os.Open(filepath.Join(corpusEvents, "..", "allowlist.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if id, _, _ := strings.Cut(sc.Text(), " "); strings.HasPrefix(id, "event-") {
			out[strings.Split(id, ":")[0]] = true
		}
	}
	return out
}

// TestPipeEventsMatchUpstream replays the corpus's event scenarios
// through `ccm ensure api pipe` and compares every stable field of the
// response's state with what upstream's own pipe answered.
func TestPipeEventsMatchUpstream(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(corpusEvents, "upstream.json"))
	if os.IsNotExist(err) {
		t.Skipf("no upstream corpus at %s", corpusEvents)
	}
	if err != nil {
		t.Fatal(err)
	}
	var upstream map[string]map[string]any
	if err := json.Unmarshal(b, &upstream); err != nil {
		t.Fatal(err)
	}
	allow := allowed(t)
	for _, sc := range eventScenarios(t) {
		t.Run(sc.id, func(t *testing.T) {
			dir := t.TempDir()
			if sc.typ == "file" {
				sc.props["name"] = filepath.Join(dir, sc.props["name"].(string))
			}
			req, _ := json.Marshal(map[string]any{"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": sc.typ, "properties": sc.props})
			args := []string{"ensure", "api", "pipe"}
			if sc.noop {
				args = append(args, "--noop")
			}
			var r result
			for range sc.runs {
				r = ccmIn(t, dir, []string{"CCM_SESSION_STORE="}, string(req), args...)
			}
			var resp struct{ State map[string]any }
			if err := json.Unmarshal([]byte(r.stdout), &resp); err != nil || resp.State == nil {
				t.Fatalf("no state in %+v", r)
			}
			want := upstream[sc.id]
			for _, k := range stableFields {
				got, exp := resp.State[k], want[k]
				if k == "name" && sc.typ == "file" {
					got, exp = filepath.Base(got.(string)), filepath.Base(exp.(string))
				}
				if !reflect.DeepEqual(got, exp) && !allow["event-"+sc.id] {
					t.Errorf("%s: %v, upstream %v", k, got, exp)
				}
			}
		})
	}
}
