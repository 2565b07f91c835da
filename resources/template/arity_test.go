package template

import (
	"errors"
	"testing"
)

func TestArity(t *testing.T) {
	tests := []struct {
		args   int
		counts []int
		want   string
	}{
		{1, []int{1}, ""},
		{3, []int{1, 3}, ""},
		{0, []int{1}, "bad arguments: f(x) takes 1 argument, got 0"},
		{1, []int{2}, "bad arguments: f(x) takes 2 arguments, got 1"},
		{3, []int{1, 2}, "bad arguments: f(x) takes 1 or 2 arguments, got 3"},
	}
	for _, tt := range tests {
		err := arity("f(x)", make([]any, tt.args), tt.counts...)
		got := ""
		if err != nil {
			got = err.Error()
			if !errors.Is(err, ErrArgs) {
				t.Errorf("%v is not ErrArgs", err)
			}
		}
		if got != tt.want {
			t.Errorf("arity(%d, %v) = %q, want %q", tt.args, tt.counts, got, tt.want)
		}
	}
}
