package dnf

import (
	"errors"
	"testing"
)

func TestCompareGeneric(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		trim bool
		want int
	}{
		// The examples of the design document's table.
		{"numbers compare numerically", "1.0", "2.0", false, -1},
		{"ten is more than nine", "1.10", "1.9", false, 1},
		{"the exhausted string is older", "1.0", "1.0.1", false, -1},
		{"releases compare", "1.0-1", "1.0-2", false, -1},
		{"letters compare lexically", "1.0a", "1.0b", false, -1},
		{"a leading zero compares as text", "01", "1", false, -1},
		{"trailing zeroes count without normalisation", "1.0.0", "1.0", false, 1},
		{"trailing zeroes are dropped with normalisation", "1.0.0", "1.0", true, 0},
		// The rules behind them.
		{"a hyphen loses to anything", "1-1", "1.1", false, -1},
		{"a dot loses to anything but a hyphen", "1.a", "1a", false, -1},
		{"segments ignore case, then the whole strings decide", "1.0A", "1.0a", false, -1},
		{"a letter run and a digit run compare as text", "1.a", "1.1", false, 1},
		{"equal strings", "5.8-9.el9", "5.8-9.el9", false, 0},
		{"long numbers do not overflow", "1.123456789012345678901234567890", "1.123456789012345678901234567891", false, -1},
		{"normalisation keeps the release", "1.0.0-rc1", "1-rc1", true, 0},
		{"normalisation keeps tens", "1.10", "1.1", true, 1},
		{"normalisation keeps a bare ten", "10", "1", true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CompareGeneric(tt.a, tt.b, tt.trim); got != tt.want {
				t.Errorf("CompareGeneric(%q, %q, %v) = %d, want %d", tt.a, tt.b, tt.trim, got, tt.want)
			}
			if got := CompareGeneric(tt.b, tt.a, tt.trim); got != -tt.want {
				t.Errorf("CompareGeneric(%q, %q, %v) = %d, want %d", tt.b, tt.a, tt.trim, got, -tt.want)
			}
		})
	}
}

func TestDropTrailingZeroes(t *testing.T) {
	for in, want := range map[string]string{
		"1.0.0-rc1": "1-rc1",
		"2.0.0":     "2",
		"2.00":      "2",
		"1.10":      "1.10",
		"10":        "10",
		"0.0":       "0",
		"1.0-1.0":   "1-1.0",
	} {
		if got := dropTrailingZeroes(in); got != want {
			t.Errorf("dropTrailingZeroes(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want int
	}{
		{"an epoch beats the version", "1:1.0-1.el9", "2.0-1.el9", 1},
		{"a missing epoch is zero", "0:5.8-9.el9", "5.8-9.el9", 0},
		{"releases compare when both are given", "5.8-9.el9", "5.8-10.el9", -1},
		{"a version without release matches any release", "5.8", "5.8-9.el9", 0},
		{"a version without release still orders versions", "5.9", "5.8-9.el9", 1},
		{"dotted releases", "2.34-100.el9", "2.34-100.el9_4.2", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CompareVersions(tt.a, tt.b)
			if err != nil || got != tt.want {
				t.Errorf("CompareVersions(%q, %q) = %d, %v; want %d", tt.a, tt.b, got, err, tt.want)
			}
		})
	}
	if _, err := CompareVersions("x:1.0", "1.0"); !errors.Is(err, ErrBadVersion) {
		t.Errorf("a non-numeric epoch: error = %v, want ErrBadVersion", err)
	}
}
