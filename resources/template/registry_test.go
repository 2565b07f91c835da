package template

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	gotemplate "text/template"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/registration"
)

// fakeRegistry answers every lookup with its entries, keeping the filters
// asked for.
type fakeRegistry struct {
	entries registration.Entries
	asked   []registration.Filter
}

func (f *fakeRegistry) Lookup(filter registration.Filter) (registration.Entries, error) {
	f.asked = append(f.asked, filter)
	return f.entries, nil
}

func backends() *fakeRegistry {
	return &fakeRegistry{entries: registration.Entries{
		{Cluster: "dev", Service: "prometheus", Protocol: "tcp", Address: "10.0.0.1", Port: int64(8080), Priority: 10},
		{Cluster: "dev", Service: "prometheus", Protocol: "tcp", Address: "10.0.0.2", Port: int64(9090), Priority: 20},
	}}
}

// TestRegistrationsInEveryEngine runs upstream's examples: expr, Jet and
// Go templates, and PrometheusFileSD from each.
func TestRegistrationsInEveryEngine(t *testing.T) {
	reg := backends()
	tm := New(Env{Registry: reg})
	const servers = "  server 10.0.0.1:8080 weight 246\n  server 10.0.0.2:9090 weight 236\n"
	for _, c := range []struct{ name, src, want string }{
		{"expr", "{{ join(map(registrations('dev', 'tcp', 'prometheus', '*'), #.Address), ',') }}", "10.0.0.1,10.0.0.2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := tm.String(c.src)
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v\nwant %q", got, err, c.want)
			}
		})
	}
	t.Run("jet", func(t *testing.T) {
		got, err := tm.Jet("backends.jet", `[[ range _, entry := registrations("dev", "tcp", "prometheus", "*") ]]  server [[ entry.Address ]]:[[ entry.Port ]] weight [[ 256 - entry.Priority ]]
[[ end ]]`, "[[", "]]")
		if err != nil || got != servers {
			t.Fatalf("got %q, %v", got, err)
		}
	})
	t.Run("go", func(t *testing.T) {
		got := goTemplate(t, tm, `{{ range $entry := registrations "dev" "tcp" "prometheus" "*" }}  server {{ $entry.Address }}:{{ $entry.Port }}
{{ end }}`)
		if got != "  server 10.0.0.1:8080\n  server 10.0.0.2:9090\n" {
			t.Fatalf("got %q", got)
		}
	})
	want := []any{"10.0.0.1:8080", "10.0.0.2:9090"}
	for name, sd := range map[string]string{
		"expr": mustString(t, tm, "{{ registrations('dev', 'tcp', 'prometheus', '*').PrometheusFileSD() }}"),
		"jet":  mustString(t, tm, `{{ jet('[[ registrations("dev", "tcp", "prometheus", "*").PrometheusFileSD() ]]') }}`),
		"go":   goTemplate(t, tm, `{{ $r := registrations "dev" "tcp" "prometheus" "*" }}{{ $r.PrometheusFileSD }}`),
	} {
		var parsed []map[string]any
		if err := json.Unmarshal([]byte(sd), &parsed); err != nil || len(parsed) != 1 || !reflect.DeepEqual(parsed[0]["targets"], want) {
			t.Errorf("%s PrometheusFileSD: %s (%v)", name, sd, err)
		}
	}
	if reg.asked[0] != (registration.Filter{Cluster: "dev", Protocol: "tcp", Service: "prometheus", Address: "*"}) {
		t.Errorf("asked %+v", reg.asked[0])
	}
}

func mustString(t *testing.T, tm *Templates, src string) string {
	t.Helper()
	s, err := tm.String(src)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// goTemplate renders src as scaffold's Go engine does, with the
// templates' Functions.
func goTemplate(t *testing.T, tm *Templates, src string) string {
	t.Helper()
	funcs := gotemplate.FuncMap{}
	for name, fn := range tm.Functions() {
		funcs[name] = fn
	}
	tpl, err := gotemplate.New("t").Funcs(funcs).Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	var sb stringsBuilder
	if err := tpl.Execute(&sb, tm.Vars()); err != nil {
		t.Fatal(err)
	}
	return string(sb)
}

type stringsBuilder []byte

func (b *stringsBuilder) Write(p []byte) (int, error) { *b = append(*b, p...); return len(p), nil }

func TestRegistrationsErrors(t *testing.T) {
	for _, c := range []struct {
		name, src string
		env       Env
		err       error
	}{
		{"no registry", "{{ registrations('a', 'b', 'c', '*') }}", Env{}, ErrNoRegistry},
		{"three arguments", "{{ registrations('a', 'b', 'c') }}", Env{Registry: backends()}, ErrArgs},
		{"a number", "{{ registrations('a', 'b', 'c', 1) }}", Env{Registry: backends()}, ErrArgs},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := New(c.env).Value(c.src); !errors.Is(err, c.err) {
				t.Fatalf("err = %v, want %v", err, c.err)
			}
		})
	}
	if _, err := NewData(Env{Registry: backends()}).Value("{{ registrations('a', 'b', 'c', '*') }}"); err == nil {
		t.Fatal("registrations is offered to hiera data, where upstream restricts functions to lookup")
	}
}

// TestScopedTemplatesRecordTheirQueries: a resource's templates record
// each query, also one made from a template file, and nothing else's.
func TestScopedTemplatesRecordTheirQueries(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "backends.jet"), []byte(`[[ len(registrations("prod", "http", "web", "*")) ]]`), 0o644); err != nil {
		t.Fatal(err)
	}
	tm := New(Env{Registry: backends(), Dir: dir})
	var mine, other resources.Lookups
	if got, err := tm.Scope(&mine).String(`{{ template("backends.jet") }}`); err != nil || got != "2" {
		t.Fatalf("got %q, %v", got, err)
	}
	web := registration.Entry{Cluster: "prod", Service: "web", Protocol: "http", Address: "10.1.1.1", Port: int64(80), Priority: 1}
	db := registration.Entry{Cluster: "prod", Service: "db", Protocol: "http", Address: "10.1.1.1", Port: int64(80), Priority: 1}
	if !mine.Concerns(web.Subject()) || mine.Concerns(db.Subject()) {
		t.Fatal("the resource's query does not select what it asked for")
	}
	if other.Concerns(web.Subject()) {
		t.Fatal("another resource's lookups recorded the query")
	}
	if !tm.ReadsFiles("{{ registrations('a', 'b', 'c', '*') }}") {
		t.Fatal("a registry query is taken as rendering the same every time")
	}
}

// TestScopedFunctionsRecordTheirQueries: scaffold's engines call the
// functions of the resource's templates; their queries are the
// resource's too.
func TestScopedFunctionsRecordTheirQueries(t *testing.T) {
	var l resources.Lookups
	sc := New(Env{Registry: backends()}).Scope(&l).(interface {
		Functions() map[string]func(args ...any) (any, error)
	})
	if _, err := sc.Functions()["registrations"]("prod", "http", "web", "*"); err != nil {
		t.Fatal(err)
	}
	e := registration.Entry{Cluster: "prod", Service: "web", Protocol: "http", Address: "10.1.1.1", Port: int64(80), Priority: 1}
	if !l.Concerns(e.Subject()) {
		t.Fatal("a query from a scaffold function was not recorded")
	}
}

// brokenRegistry fails every lookup.
type brokenRegistry struct{}

func (brokenRegistry) Lookup(registration.Filter) (registration.Entries, error) {
	return nil, errors.New("stream not found")
}

// TestRegistrationsFailures: the messages say what to do and which
// query failed; a failed query is still the resource's, to look again.
func TestRegistrationsFailures(t *testing.T) {
	tests := []struct {
		env       Env
		src, want string
	}{
		{Env{}, "{{ registrations('a', 'b', 'c', '*') }}",
			"template {{ registrations('a', 'b', 'c', '*') }}: registrations: no registration stream here: run with --registration STREAM (ccm apply -R), or the agent's registration setting"},
		{Env{Registry: brokenRegistry{}}, "{{ registrations('prod', 'http', 'web', '*') }}",
			"template {{ registrations('prod', 'http', 'web', '*') }}: registrations(prod, http, web, *): stream not found"},
		{Env{Registry: backends()}, "{{ registrations('a', 'b', 'c', 1) }}",
			"template {{ registrations('a', 'b', 'c', 1) }}: bad arguments: registrations: the address must be a string, got int"},
	}
	for _, tt := range tests {
		var l resources.Lookups
		_, err := New(tt.env).Scope(&l).String(tt.src)
		if err == nil || err.Error() != tt.want {
			t.Errorf("error %v\nwant  %q", err, tt.want)
		}
	}
	var l resources.Lookups
	New(Env{Registry: brokenRegistry{}}).Scope(&l).String("{{ registrations('prod', 'http', 'web', '*') }}")
	web := registration.Entry{Cluster: "prod", Service: "web", Protocol: "http", Address: "10.1.1.1", Port: int64(80), Priority: 1}
	if !l.Concerns(web.Subject()) {
		t.Error("a failed query was not recorded")
	}
}
