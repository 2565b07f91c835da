package file

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestModeForms(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       Mode
	}{
		{"three digits", `m: "644"`, 0o644},
		{"leading zero", `m: "0644"`, 0o644},
		{"0o prefix", `m: "0o644"`, 0o644},
		{"0O prefix", `m: "0O644"`, 0o644},
		{"unquoted three digits", `m: 644`, 0o644},
		{"unquoted leading zero", `m: 0644`, 0o644},
		{"unquoted 0o prefix", `m: 0o755`, 0o755},
		{"all bits", `m: "0777"`, 0o777},
		{"no bits", `m: "0"`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v struct{ M Mode }
			if err := yaml.Unmarshal([]byte(tt.yaml), &v); err != nil {
				t.Fatal(err)
			}
			if v.M != tt.want {
				t.Errorf("got %s, want %s", v.M, tt.want)
			}
		})
	}
}

func TestDirectoryModeAddsSearchWhereReadOrWrite(t *testing.T) {
	tests := []struct{ in, want Mode }{
		{0o644, 0o755},
		{0o600, 0o700},
		{0o640, 0o750},
		{0o200, 0o300},
		{0o751, 0o751},
		{0o000, 0o000},
	}
	for _, tt := range tests {
		t.Run(tt.in.String(), func(t *testing.T) {
			if got := tt.in.dir(); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}
