package main

import (
	"strings"
	"testing"
)

func TestTable(t *testing.T) {
	in := `goos: linux
BenchmarkRepair/tmpfs/100-2   	       1	9 ns/op	  600 ccm-cpu-µs/repair	 0 ccm-left-wrong	 0.3 ccm-p50-ms	 100 floor-cpu-µs/repair	 0 floor-left-wrong	 0.2 floor-p50-ms	 6 x-floor-cpu-µs/repair	 1.5 x-floor-p50-ms
BenchmarkOneShot/ext4/1000-2 	       1	9 ns/op	  0.35 ccm-first-s	 2 ccm-left-wrong	 0.92 floor-first-s	 0.38 x-floor-first-s	 3.0 x-floor-syncfs-first-s
BenchmarkWatch/1000-2 	       1	9 ns/op	  12 rss-MB
PASS
`
	var out strings.Builder
	if err := table(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := [][]string{
		{"benchmark", "figure", "ccm", "floor", "×", "floor", "left", "wrong", "ccm", "/", "floor"},
		{"Repair/tmpfs/100", "cpu-µs/repair", "600", "100", "6", "0", "/", "0"},
		{"Repair/tmpfs/100", "p50-ms", "0.3", "0.2", "1.5", "0", "/", "0"},
		{"OneShot/ext4/1000", "first-s", "0.35", "0.92", "0.38", "2", "/", "-"},
		{"OneShot/ext4/1000", "syncfs-first-s", "-", "-", "3.0", "2", "/", "-"},
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i, w := range want {
		if got := strings.Fields(lines[i]); strings.Join(got, " ") != strings.Join(w, " ") {
			t.Errorf("line %d = %q, want %q", i, got, w)
		}
	}
}
