package memory

import (
	"math"
	"runtime"
	"slices"
	"testing"
	"time"
)

// recordStart starts with recorders of the settings made, and returns
// them and a channel that hears the end of the start.
func recordStart() (*[]int, *[]int64, <-chan struct{}) {
	var percents []int
	var limits []int64
	ended := make(chan struct{}, 1)
	startWith(func(p int) int {
		percents = append(percents, p)
		if p == 100 {
			ended <- struct{}{}
		}
		return 0
	}, func(l int64) int64 {
		limits = append(limits, l)
		return 0
	})
	return &percents, &limits, ended
}

func TestStartEndsAtTheFirstCollection(t *testing.T) {
	percents, limits, ended := recordStart()
	if !slices.Equal(*percents, []int{-1}) || !slices.Equal(*limits, []int64{StartRoom}) {
		t.Fatalf("started with percentages %v and limits %v, want off under %d", *percents, *limits, StartRoom)
	}
	runtime.GC()
	select {
	case <-ended:
	case <-time.After(time.Minute):
		t.Fatal("the first collection did not end the start")
	}
	if !slices.Equal(*percents, []int{-1, 100}) || !slices.Equal(*limits, []int64{StartRoom, math.MaxInt64}) {
		t.Fatalf("after the first collection: percentages %v and limits %v, want Go's default", *percents, *limits)
	}
}

func TestTheDaemonsPacerEndsTheStartOnce(t *testing.T) {
	percents, limits, _ := recordStart()
	p, set, _ := recorder(false, 40<<20)
	p.Loaded()
	if !slices.Equal(*percents, []int{-1, 100}) || !slices.Equal(*limits, []int64{StartRoom, math.MaxInt64}) {
		t.Fatalf("after the Pacer took over: percentages %v and limits %v, want the start ended", *percents, *limits)
	}
	// The first collection's cleanup, after the Pacer took over.
	endStart()
	if !slices.Equal(*percents, []int{-1, 100}) || !slices.Equal(*limits, []int64{StartRoom, math.MaxInt64}) {
		t.Fatalf("percentages %v and limits %v, want the start ended once", *percents, *limits)
	}
	if !slices.Equal(*set, []int{25}) {
		t.Fatalf("the Pacer set %v, want 25 after the start ended", *set)
	}
}
