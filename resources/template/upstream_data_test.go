package template

import (
	"reflect"
	"testing"
)

// TestDataShapeAsUpstream pins the hiera-data rows of upstream CCM's
// templates_test.go (the ids of the upstream corpus's
// templates/rows.json): a data value that is one expression keeps its
// type, only lookup() is offered, and a missing key is "" there.
func TestDataShapeAsUpstream(t *testing.T) {
	facts := map[string]any{"os": "linux", "app_name": "myapp", "port": 8080, "enabled": true, "items": []any{"a", "b"}}
	tm := NewData(Env{Facts: facts})
	tests := []struct {
		id, in string
		want   any
	}{
		{"tpl-L117", "", ""},
		{"tpl-L123", "plain text", "plain text"},
		{"tpl-L129", "{{ Facts.port }}", 8080},
		{"tpl-L136", "{{ Facts.enabled }}", true},
		{"tpl-L143", "{{ Facts.app_name }}", "myapp"},
		{"tpl-L150", "Port: {{ Facts.port }}", "Port: 8080"},
		{"tpl-L157", "{{  Facts.port  }}", 8080},
		{"tpl-L163", "{{ Facts.port + 100 }}", 8180},
		{"tpl-L846", "{{ Facts.items }}", []any{"a", "b"}},
		{"tpl-L875", "${ Facts.port }", 8080},
		{"tpl-L876", "${ Facts.enabled }", true},
		{"tpl-L644", "{{ lookup('facts.nonexistent') }}", ""},
		{"tpl-L651", "{{ lookup('facts.nonexistent', 'fallback') }}", "fallback"},
		{"tpl-L687", "{{ lookup('facts.app_name') }}", "myapp"},
		{"tpl-L697", "App: {{ Facts.app_name }}", "App: myapp"},
		{"tpl-L894", "${ Facts.app_name }/{{ Facts.os }}", "myapp/linux"},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			got, err := tm.Value(tt.in)
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Value(%q) = %#v, %v; want %#v", tt.in, got, err, tt.want)
			}
		})
	}
	for id, in := range map[string]string{
		"tpl-L170": "{{ invalid syntax }}",
		"tpl-L666": "{{ readFile('/etc/hostname') }}",
		"tpl-L673": "{{ file('/etc/hostname') }}",
		"tpl-L680": "{{ template('test') }}",
		"jet":      "{{ jet('x') }}",
		"kvGet":    "{{ kvGet('b', 'k', 'd') }}",
	} {
		if got, err := tm.Value(in); err == nil {
			t.Errorf("%s: Value(%q) = %#v, want an error", id, in, got)
		}
	}
}
