package apt

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func testdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseStatus(t *testing.T) {
	tests := []struct {
		file string
		want map[string]string
	}{
		{"dpkg_query_installed.txt", map[string]string{"zsh": "5.9-4+b1", "zsh:amd64": "5.9-4+b1"}},
		{"dpkg_query_epoch.txt", map[string]string{"vim": "2:9.0.1378-2", "vim:amd64": "2:9.0.1378-2"}},
		{"dpkg_query_absent.txt", map[string]string{}},
		// Only "installed" counts: config-files, half-installed, unpacked,
		// half-configured and not-installed packages are absent.
		{"dpkg_query_batch.txt", map[string]string{
			"libc6":       "2.36-9+deb12u14",
			"libc6:amd64": "2.36-9+deb12u14",
			"libc6:i386":  "2.36-9+deb12u14",
			"vim":         "2:9.0.1378-2",
			"vim:amd64":   "2:9.0.1378-2",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			if got := parseStatus(testdata(t, tt.file)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseStatus = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseCandidate(t *testing.T) {
	tests := []struct{ file, want string }{
		{"apt_cache_policy_zsh.txt", "5.9-8+b18"},
		{"apt_cache_policy_upgradable.txt", "2:9.0.1378-2+deb12u2"},
		{"apt_cache_policy_none.txt", ""},
		{"apt_cache_policy_unknown.txt", ""},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			if got := parseCandidate(testdata(t, tt.file)); got != tt.want {
				t.Errorf("parseCandidate = %q, want %q", got, tt.want)
			}
		})
	}
}
