package memory

import (
	"errors"
	"runtime"
	"slices"
	"testing"
)

func TestPercentGivesSmallDaemonsGosDefault(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 100},
		{4 << 20, 100},
		{MinRoom, 100},
		{16 << 20, 50},
		{32 << 20, 25},
		{35 << 20, 25},
		{400 << 20, 25},
	} {
		if got := Percent(c.live); got != c.want {
			t.Errorf("Percent(%d MiB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}

// recorder returns a Pacer of a daemon keeping live bytes that records
// the percentages it sets and how many collections it ran; its trims
// are counted as collections too.
func recorder(off bool, live uint64) (*Pacer, *[]int, *int) {
	var set []int
	var collected int
	p := New(func(err error) { panic(err) })
	p.off = off
	p.collect = func() { collected++ }
	p.trim = func() error { collected += 1000; return nil }
	p.live = func() uint64 { return live }
	p.setPercent = func(n int) int {
		set = append(set, n)
		return 0
	}
	return p, &set, &collected
}

func TestPacerCollectsAtGosDefaultOnlyWhileLoading(t *testing.T) {
	p, set, collected := recorder(false, 40<<20)
	p.Loaded() // the first convergence
	around := p.Around(func(reload func()) { reload() })
	around(func() {
		// A load begun while another is under way.
		p.Loading()
		p.Loaded()
		if want := []int{25, 100}; !slices.Equal(*set, want) {
			t.Fatalf("percentages set during the reload %v, want %v", *set, want)
		}
	})
	if want := []int{25, 100, 25}; !slices.Equal(*set, want) {
		t.Fatalf("percentages set %v, want %v", *set, want)
	}
	if *collected != 2002 {
		t.Fatalf("%d collections and %d trims, want one of each at the end of each load (2)", *collected%1000, *collected/1000)
	}
}

func TestPacerAroundWithoutAWrappedAround(t *testing.T) {
	p, set, _ := recorder(false, 2<<20)
	p.Loaded()
	ran := false
	p.Around(nil)(func() { ran = true })
	if !ran {
		t.Fatal("the reload did not run")
	}
	if want := []int{100, 100, 100}; !slices.Equal(*set, want) {
		t.Fatalf("percentages set %v, want %v", *set, want)
	}
}

func TestPacerLeavesTheEnvironmentsCollector(t *testing.T) {
	p, set, collected := recorder(true, 40<<20)
	p.Loaded()
	p.Loading()
	p.Loaded()
	if len(*set) != 0 || *collected%1000 != 0 {
		t.Fatalf("percentages set %v and %d collections under GOGC or GOMEMLIMIT, want none", *set, *collected%1000)
	}
	if *collected/1000 != 2 {
		t.Fatalf("%d trims, want one at the end of each load (2): the program's pages are not the collector's", *collected/1000)
	}
}

func TestLiveHeapIsRead(t *testing.T) {
	keep := make([]byte, 1<<20)
	New(nil).collect()
	if got := liveHeap(); got < uint64(len(keep)) {
		t.Fatalf("live heap %d bytes, want at least the %d kept", got, len(keep))
	}
	runtime.KeepAlive(keep)
}

func TestPacerLogsAFailedTrim(t *testing.T) {
	var heard error
	p := New(func(err error) { heard = err })
	p.off = true
	p.trim = func() error { return errors.New("no /proc") }
	p.Loaded()
	if heard == nil || heard.Error() != "no /proc" {
		t.Fatalf("heard %v, want the trim's error", heard)
	}
}
