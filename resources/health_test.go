package resources

import (
	"encoding/json"
	"testing"
)

// TestHealthStatus: the statuses are numbered as Nagios plugins exit and
// named as upstream reports them; CRITICAL and UNKNOWN fail the
// resource, WARNING is only reported.
func TestHealthStatus(t *testing.T) {
	for _, c := range []struct {
		s       HealthStatus
		code    int
		name    string
		failing bool
	}{
		{HealthOK, 0, "OK", false},
		{HealthWarning, 1, "WARNING", false},
		{HealthCritical, 2, "CRITICAL", true},
		{HealthUnknown, 3, "UNKNOWN", true},
	} {
		if int(c.s) != c.code || c.s.String() != c.name || c.s.Failing() != c.failing {
			t.Errorf("status %d: %d %s failing %v; want %d %s failing %v", c.s, int(c.s), c.s, c.s.Failing(), c.code, c.name, c.failing)
		}
	}
}

// TestHealthResultJSON is upstream's result, its Output capitalised, and
// the status as its number.
func TestHealthResultJSON(t *testing.T) {
	b, err := json.Marshal(HealthResult{Name: "ssh", Status: HealthWarning, Tries: 2, Output: "slow"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"name":"ssh","status":1,"tries":2,"Output":"slow"}`; string(b) != want {
		t.Errorf("%s, want %s", b, want)
	}
}
