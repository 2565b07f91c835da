package resourcetest

import (
	"reflect"
	"testing"
)

// Returns fails the test unless a call, named by what, returned want (as
// reflect.DeepEqual has it) without error or, when wantErr is set, failed
// with an error whose text is wantErr: the check of a table whose rows
// hold either an answer or an error.
func Returns(t testing.TB, what string, got any, err error, want any, wantErr string) {
	t.Helper()
	if wantErr != "" {
		if err == nil || err.Error() != wantErr {
			t.Errorf("%s = %#v, %v; want the error %q", what, got, err, wantErr)
		}
		return
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v, %v; want %#v", what, got, err, want)
	}
}
