package file_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// TestReportedContentIsADigest: events show a file's content as its
// digest and size, the resolved text's once it was resolved, never the
// bytes.
func TestReportedContentIsADigest(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "secret.conf")
	const props = `{ensure: present, owner: root, group: root, mode: "0600", content: "password = {{ pw }}\n"}`
	inst, err := resourcetest.BuildWith(t, "file", path, props, dir, resourcetest.Vars{"pw": "PRIV-CANARY"})
	if err != nil {
		t.Fatal(err)
	}
	r := inst.Resource.(resources.PropertyReporter)
	got := map[string]any{"content": "password = {{ pw }}\n", "mode": "0600"}
	r.ReportProperties(got)
	if want := map[string]any{"mode": "0600"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("before the template is resolved: %#v, want %#v", got, want)
	}
	resourcetest.Converge(context.Background(), t, inst.Resource, false, false)
	got = map[string]any{"content": "password = {{ pw }}\n", "mode": "0600"}
	r.ReportProperties(got)
	want := map[string]any{"content": sha("password = PRIV-CANARY\n"), "content_size": int64(23), "mode": "0600"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after a run: %#v, want %#v", got, want)
	}

	literal := build(t, filepath.Join(dir, "plain"), `{ensure: present, owner: root, group: root, mode: "0644", content: "x"}`)
	got = map[string]any{"content": "x"}
	literal.(resources.PropertyReporter).ReportProperties(got)
	if want := (map[string]any{"content": sha("x"), "content_size": int64(1)}); !reflect.DeepEqual(got, want) {
		t.Fatalf("literal content: %#v, want %#v", got, want)
	}
}
