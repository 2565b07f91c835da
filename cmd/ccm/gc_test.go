package main

import (
	"slices"
	"testing"
)

// recordGC returns a daemonGC that records the percentages it sets.
func recordGC(off bool) (*daemonGC, *[]int) {
	var set []int
	d := newDaemonGC()
	d.off = off
	d.setPercent = func(p int) int {
		set = append(set, p)
		return 0
	}
	return d, &set
}

func TestDaemonCollectsAtGosDefaultOnlyWhileLoading(t *testing.T) {
	d, set := recordGC(false)
	d.loaded() // the first convergence
	d.loading()
	// A load begun while another is under way.
	d.loading()
	d.loaded()
	d.loaded()
	if want := []int{convergedGC, 100, convergedGC}; !slices.Equal(*set, want) {
		t.Fatalf("percentages set %v, want %v", *set, want)
	}
}

func TestDaemonLeavesTheEnvironmentsCollector(t *testing.T) {
	d, set := recordGC(true)
	d.loaded()
	d.loading()
	d.loaded()
	if len(*set) != 0 {
		t.Fatalf("percentages set %v under GOGC or GOMEMLIMIT, want none", *set)
	}
}
