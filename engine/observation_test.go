package engine

import (
	"testing"

	"github.com/reactive-ccm/ccm/resources"
)

func TestObservationSaysWhatARunRepaired(t *testing.T) {
	diff := []resources.Difference{resources.Differs("mode", "0600", "0644")}
	for _, tc := range []struct {
		name            string
		ev              Event
		repaired, drift bool
	}{
		{"drift repaired", Event{Trigger: TriggerDrift, Changed: true, Changes: diff}, true, true},
		{"poll found and repaired", Event{Trigger: TriggerPoll, Changed: true, Changes: diff}, true, true},
		{"re-check repaired", Event{Trigger: TriggerRecheck, Changed: true, Changes: diff}, true, true},
		{"startup change is no repair", Event{Trigger: TriggerStartup, Changed: true, Changes: diff}, false, false},
		{"reload change is no repair", Event{Trigger: TriggerReload, Changed: true, Changes: diff}, false, false},
		{"refresh is no repair", Event{Trigger: TriggerRefresh, Changed: true}, false, false},
		{"noop only predicts", Event{Trigger: TriggerDrift, Changed: true, Noop: true, Changes: diff}, false, true},
		{"failed repair", Event{Trigger: TriggerDrift, Changed: true, Failed: true, Changes: diff}, false, true},
		{"drift event found nothing", Event{Trigger: TriggerDrift}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := Observation{Event: &tc.ev}
			if o.Repaired() != tc.repaired || o.DriftFound() != tc.drift {
				t.Fatalf("repaired %v drift %v, want %v %v", o.Repaired(), o.DriftFound(), tc.repaired, tc.drift)
			}
		})
	}
}
