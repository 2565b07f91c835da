package template

import (
	"errors"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/CloudyKit/jet/v6"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/registration"
)

// TestEveryScopedEntryRecords: whichever way a resource's templates
// run (a value, a string, a Jet body, a function scaffold calls), the
// query is the resource's, and its results are those of the templates
// unscoped.
func TestEveryScopedEntryRecords(t *testing.T) {
	const query = `registrations("prod", "http", "web", "*")`
	type scopedAPI interface {
		resources.Templates
		Jet(name, body, left, right string) (string, error)
		Functions() map[string]func(args ...any) (any, error)
	}
	tests := []struct {
		name string
		run  func(s scopedAPI) (any, error)
		want any
	}{
		{"Value keeps the type", func(s scopedAPI) (any, error) { return s.Value("${ len(" + query + ") }") }, 2},
		{"String", func(s scopedAPI) (any, error) { return s.String("n=${ len(" + query + ") }") }, "n=2"},
		{"Jet", func(s scopedAPI) (any, error) { return s.Jet("inline", "<% len("+query+") %>", "<%", "%>") }, "2"},
		{"Functions", func(s scopedAPI) (any, error) {
			v, err := s.Functions()["registrations"]("prod", "http", "web", "*")
			if es, ok := v.(registration.Entries); ok {
				return len(es), err
			}
			return v, err
		}, 2},
	}
	web := registration.Entry{Cluster: "prod", Service: "web", Protocol: "http", Address: "10.1.1.1", Port: int64(80), Priority: 1}
	db := registration.Entry{Cluster: "prod", Service: "db", Protocol: "http", Address: "10.1.1.1", Port: int64(80), Priority: 1}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mine resources.Lookups
			s := New(Env{Registry: backends()}).Scope(&mine).(scopedAPI)
			got, err := tt.run(s)
			if err != nil || got != tt.want {
				t.Fatalf("got %v (%T), %v; want %v", got, got, err, tt.want)
			}
			if !mine.Concerns(web.Subject()) || mine.Concerns(db.Subject()) {
				t.Fatal("the query was not recorded as the resource's")
			}
		})
	}
	s := New(Env{Registry: backends()}).Scope(&resources.Lookups{}).(interface {
		Functions() map[string]func(args ...any) (any, error)
		JetFunctions() map[string]jet.Func
	})
	// Jet has its own templates: every function but jet itself.
	fn := slices.DeleteFunc(slices.Sorted(maps.Keys(s.Functions())), func(n string) bool { return n == "jet" })
	if jf := slices.Sorted(maps.Keys(s.JetFunctions())); !slices.Equal(fn, jf) || len(fn) < 6 {
		t.Errorf("Jet offers %q, want %q", jf, fn)
	}
}

// TestScopesKeepTheirQueriesApart: resources resolving at once through
// one Templates each record only their own queries (the race detector
// watches the shared environment pool).
func TestScopesKeepTheirQueriesApart(t *testing.T) {
	tm := New(Env{Registry: fixedRegistry(backends().entries)})
	services := []string{"web", "db", "cache", "queue"}
	lookups := make([]resources.Lookups, len(services))
	var wg sync.WaitGroup
	for i, svc := range services {
		wg.Go(func() {
			s := tm.Scope(&lookups[i])
			for range 20 {
				if _, err := s.String(`${ len(registrations("prod", "http", "` + svc + `", "*")) }`); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	for i, svc := range services {
		for j, other := range services {
			e := registration.Entry{Cluster: "prod", Service: other, Protocol: "http", Address: "10.0.0.1", Port: int64(80), Priority: 1}
			if got := lookups[i].Concerns(e.Subject()); got != (i == j) {
				t.Errorf("%s's lookups concern %s: %v", svc, other, got)
			}
		}
	}
}

// fixedRegistry answers every lookup with its entries; safe for
// concurrent use.
type fixedRegistry registration.Entries

func (f fixedRegistry) Lookup(registration.Filter) (registration.Entries, error) {
	return registration.Entries(f), nil
}

// TestFactsThatLoadAsNothing: a LoadFacts giving nil leaves empty facts,
// not a nil map templates would trip on.
func TestFactsThatLoadAsNothing(t *testing.T) {
	tm := New(Env{LoadFacts: func() map[string]any { return nil }})
	if got, err := tm.String("[{{ Facts.os }}]"); err != nil || got != "[]" {
		t.Fatalf("got %q, %v", got, err)
	}
	if _, err := tm.String("{{ lookup('facts.os') }}"); !errors.Is(err, ErrMissingKey) {
		t.Fatalf("lookup of a fact: %v, want ErrMissingKey", err)
	}
	if v, ok := tm.Vars()["facts"].(map[string]any); !ok || v == nil {
		t.Fatalf("facts %#v", tm.Vars()["facts"])
	}
}
