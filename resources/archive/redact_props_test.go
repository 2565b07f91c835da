package archive

import (
	"reflect"
	"testing"
)

func TestReportedPropertiesHideSecrets(t *testing.T) {
	props := map[string]any{
		"url":      "https://bob:hunter2@example.com/app.tar.gz?token=s3cret",
		"password": "hunter2",
		"username": "bob",
		"headers":  map[string]any{"Authorization": "Bearer s3cret"},
		"owner":    "root",
	}
	redactProps(props)
	want := map[string]any{
		"url":      "https://example.com/app.tar.gz?" + redacted,
		"password": redacted,
		"username": "bob",
		"headers":  map[string]any{"Authorization": redacted},
		"owner":    "root",
	}
	if !reflect.DeepEqual(props, want) {
		t.Fatalf("redacted = %v, want %v", props, want)
	}
}
