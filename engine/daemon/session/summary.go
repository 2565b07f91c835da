package session

import (
	"fmt"
	"io"
	"time"
)

// Summary counts a session's events as upstream's SessionSummary does:
// each event by its worst outcome, failed, then skipped, then changed,
// then stable; refreshes separately.
type Summary struct {
	Counts
	Errors int `json:"total_errors"`
}

// Counts are the counts of upstream's session summary that a one-shot
// run's JSON summary line (package eventlog) shows too, in upstream's
// order.
type Counts struct {
	StartTime time.Time     `json:"start_time"`
	EndTime   time.Time     `json:"end_time"`
	Duration  time.Duration `json:"total_duration"`
	Total     int           `json:"total_resources"`
	Unique    int           `json:"unique_resources"`
	Changed   int           `json:"changed_resources"`
	Failed    int           `json:"failed_resources"`
	Skipped   int           `json:"skipped_resources"`
	Stable    int           `json:"stable_resources"`
	Refreshed int           `json:"refreshed_count"`
	// Unmet counts the requirements events name as unmet, as upstream.
	Unmet int `json:"requirements_unmet_count"`
}

// Summarize sums es up. The run time runs from the session's start (or
// its first event) to the end of its last event; upstream stops at the
// last event's start, so a one-resource session shows 0s there.
func Summarize(es Events) Summary {
	var s Summary
	unique := map[string]bool{}
	var busy time.Duration
	for _, ev := range es.Resources {
		s.Total++
		unique[ev.ID()] = true
		busy += ev.Duration
		if s.StartTime.IsZero() || ev.Timestamp.Before(s.StartTime) {
			s.StartTime = ev.Timestamp
		}
		if end := ev.Timestamp.Add(ev.Duration); end.After(s.EndTime) {
			s.EndTime = end
		}
		if ev.Refreshed {
			s.Refreshed++
		}
		s.Unmet += len(ev.UnmetRequirements)
		switch {
		case ev.Failed:
			s.Failed++
			s.Errors++
		case ev.Skipped:
			s.Skipped++
		case ev.Changed:
			s.Changed++
		default:
			s.Stable++
		}
	}
	s.Unique = len(unique)
	if es.Start != nil {
		s.StartTime = es.Start.Timestamp
	}
	s.Duration = busy
	if !s.EndTime.IsZero() {
		s.Duration = s.EndTime.Sub(s.StartTime)
	}
	return s
}

// Write prints s as upstream's `ccm session report` does.
func (s Summary) Write(w io.Writer) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Session Summary")
	fmt.Fprintln(w)
	if s.Duration > 0 {
		fmt.Fprintf(w, "             Run Time: %v\n", s.Duration.Round(time.Millisecond))
	}
	fmt.Fprintf(w, "      Total Resources: %d\n", s.Total)
	fmt.Fprintf(w, "     Stable Resources: %d\n", s.Stable)
	fmt.Fprintf(w, "    Changed Resources: %d\n", s.Changed)
	fmt.Fprintf(w, "     Failed Resources: %d\n", s.Failed)
	fmt.Fprintf(w, "    Skipped Resources: %d\n", s.Skipped)
	fmt.Fprintf(w, "  Refreshed Resources: %d\n", s.Refreshed)
	fmt.Fprintf(w, "         Total Errors: %d\n", s.Errors)
}
