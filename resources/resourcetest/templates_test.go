package resourcetest_test

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestVars(t *testing.T) {
	v := resourcetest.Vars{"host": "web1", "port": 8080, "empty": ""}
	tests := []struct {
		name, in  string
		wantValue any
		wantErr   string
	}{
		{"text without expressions", "plain", "plain", ""},
		{"names inside text", "{{ host }}:{{port}}", "web1:8080", ""},
		{"one expression keeps its type", "{{ port }}", 8080, ""},
		{"an empty value", "x{{ empty }}", "x", ""},
		{"the first unknown name", "{{ nope }} {{ other }}", nil, `unknown name "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := v.Value(tt.in)
			resourcetest.Returns(t, "Value("+tt.in+")", got, err, tt.wantValue, tt.wantErr)
			if tt.wantErr != "" {
				return
			}
			if v.HasExpr(tt.in) != (tt.in != "plain") {
				t.Errorf("HasExpr(%q) = %v", tt.in, v.HasExpr(tt.in))
			}
		})
	}
	if v.Vars()["port"] != 8080 {
		t.Errorf("Vars() = %v, want the entries", v.Vars())
	}
	if v.Fingerprint() == (resourcetest.Vars{"host": "web2"}).Fingerprint() {
		t.Error("different entries have the same fingerprint")
	}
}

func TestWriteFileIgnoresTheUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	t.Cleanup(func() { syscall.Umask(old) })
	path := filepath.Join(t.TempDir(), "f")
	resourcetest.WriteFile(t, path, "x", 0o644)
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		t.Fatal(err)
	}
	if st.Mode&0o777 != 0o644 || resourcetest.ReadFile(t, path) != "x" || !resourcetest.FileIs(path, "x") || !resourcetest.Exists(path) {
		t.Fatalf("mode %o content %q", st.Mode&0o777, resourcetest.ReadFile(t, path))
	}
}

func TestFIFOIsANamedPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	resourcetest.FIFO(t, path)
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		t.Fatalf("mode %o, %v: want a FIFO", st.Mode, err)
	}
}
