package template

import (
	"errors"
	"testing"
)

// TestWhatIsMetered: an expression that only reads and compares
// variables runs in the shared environment, without a budget; one that
// adds, calls, builds a list or map or loops runs under one.
func TestWhatIsMetered(t *testing.T) {
	tests := []struct {
		src     string
		metered bool
	}{
		{"Data.app_name", false},
		{"Data.port == 8080 && Data.enabled", false},
		{"Data.enabled ? Data.port : Data.pi", false},
		{"Data.items[0]", false},
		{"Data.port + 1", true},
		{"upper(Data.app_name)", true},
		{"lookup('data.port')", true},
		{"[Data.port]", true},
		{"{'a': Data.port}", true},
		{"len(Data.items)", true},
		{"all(Data.items, # != '')", true},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			p, err := compile(full, tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if p.metered != tt.metered {
				t.Fatalf("metered %v, want %v", p.metered, tt.metered)
			}
		})
	}
}

// TestMeteringFunctionsRefuseMisuse: the functions the meter inserts
// take the budget and a fixed number of values; a metered function
// called without a budget fails rather than run unbounded.
func TestMeteringFunctionsRefuseMisuse(t *testing.T) {
	b := newBudget(defaultLimits)
	if v, err := add(b, 2, 3); v != 5 || err != nil {
		t.Errorf("add of numbers: %v, %v", v, err)
	}
	if v, err := add(b, "a", "b"); v != "ab" || err != nil {
		t.Errorf("add of strings: %v, %v", v, err)
	}
	for name, err := range map[string]error{
		"add of one value": func() error { _, err := add(b, 1); return err }(),
		"tick of none":     func() error { _, err := tick(b); return err }(),
		"a metered function without a budget": func() error {
			_, err := fromExpr(repeat)(nil, "a", 2)
			return err
		}(),
		// What the shared environment holds for expressions run unmetered.
		"a metered function given the shared environment's nil budget": func() error {
			_, err := fromExpr(repeat)((*budget)(nil), "a", 2)
			return err
		}(),
		"a metered function given something else first": func() error {
			_, err := fromExpr(repeat)("a", 2)
			return err
		}(),
	} {
		if !errors.Is(err, ErrArgs) {
			t.Errorf("%s: %v, want ErrArgs", name, err)
		}
	}
	if v, err := tick(b, "x"); v != "x" || err != nil || b.work != 1+2 {
		t.Errorf("tick: %v, %v, work %d", v, err, b.work)
	}
}
