package template

import (
	"maps"
	"slices"
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
