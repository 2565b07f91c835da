package resources_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
)

// prefix matches the subjects starting with p, as a registry query for a
// service matches that service's registrations.
func prefix(p string) func(string) bool {
	return func(s string) bool { return strings.HasPrefix(s, p) }
}

func TestLookupsConcerns(t *testing.T) {
	var l resources.Lookups
	if l.Concerns("web.a") {
		t.Fatal("a Lookups without queries is concerned by a change")
	}
	l.Add("web", prefix("web."))
	// A second Add of the same query keeps the first test: the query is
	// the same, whatever closure the caller built for it this time.
	l.Add("web", prefix("db."))
	l.Add("cache", prefix("cache."))
	for subject, want := range map[string]bool{"web.a": true, "cache.b": true, "db.c": false, "": false} {
		if got := l.Concerns(subject); got != want {
			t.Errorf("Concerns(%q) = %t, want %t", subject, got, want)
		}
	}
}

func TestLookupsLoaded(t *testing.T) {
	digest := func(found ...string) string {
		var l resources.Lookups
		for i := 0; i+1 < len(found); i += 2 {
			l.Found(found[i], found[i+1])
		}
		l.Seal()
		l.Found("late", "ignored")
		return l.Loaded()
	}
	if got := digest(); got != "" {
		t.Fatalf("nothing found while loading, digest %q", got)
	}
	ab := digest("a", "1", "b", "2")
	for _, tc := range []struct {
		name  string
		found []string
		same  bool
	}{
		{"the same finds in another order", []string{"b", "2", "a", "1"}, true},
		{"a find made again replaces the first", []string{"a", "0", "b", "2", "a", "1"}, true},
		{"another digest", []string{"a", "1", "b", "3"}, false},
		{"a query fewer", []string{"a", "1"}, false},
		{"key and digest not confused across the boundary", []string{"a", "1b", "", "2"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := digest(tc.found...); (got == ab) != tc.same {
				t.Fatalf("digest %s, of a=1,b=2 %s: same %t, want %t", got, ab, got == ab, tc.same)
			}
		})
	}
	if digest("late", "ignored") == digest() {
		t.Fatal("a find before Seal was not counted")
	}
}

func TestLookupsStale(t *testing.T) {
	// now holds what each query would find now, by its prefix.
	now := map[string]string{"web.": "d1", "db.": "d2"}
	find := func(match func(string) bool) string {
		for p, d := range now {
			if match(p) {
				return d
			}
		}
		return ""
	}
	var l resources.Lookups
	l.Add("web", prefix("web."))
	l.Add("db", prefix("db."))
	l.Found("web", "d1")
	l.Found("db", "d2")
	// A digest recorded for a query never added (a cached render) has no
	// test to run it again with, and is never stale.
	l.Found("orphan", "x")
	l.Seal()
	if l.Stale(find) {
		t.Fatal("stale while every query finds what it found")
	}
	now["db."] = "d3"
	if !l.Stale(find) {
		t.Fatal("not stale after the db query's result changed")
	}
}

// TestLookupsConcurrent: templates render on several workers at once
// while the engine asks what a change concerns; run with -race.
func TestLookupsConcurrent(t *testing.T) {
	var l resources.Lookups
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			key := fmt.Sprintf("q%d", i%4)
			l.Add(key, prefix(key))
			l.Found(key, "d")
			l.Concerns(key)
			l.Loaded()
			l.Stale(func(func(string) bool) string { return "d" })
		})
	}
	wg.Wait()
	for i := range 4 {
		if !l.Concerns(fmt.Sprintf("q%d", i)) {
			t.Errorf("query q%d lost", i)
		}
	}
}
