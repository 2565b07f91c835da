package fileline_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
)

// TestFileResourceOnTheSamePath: a file resource may manage the path of a
// file_line only while it leaves the content alone.
func TestFileResourceOnTheSamePath(t *testing.T) {
	tests := []struct {
		name, file, want string
	}{
		{"attributes only", "ensure: present\n        owner: root\n        group: root\n        mode: \"0644\"", ""},
		{"content", "ensure: present\n        content: x\n        owner: root\n        group: root\n        mode: \"0644\"", "file#/etc/x decides it whole (content) while file_line#l edits part of it (the line a=1)"},
		{"absent", "ensure: absent", "file#/etc/x decides it whole (ensure: absent)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := filepath.Join(t.TempDir(), "m.yaml")
			src := fmt.Sprintf("- file:\n    - /etc/x:\n        %s\n- file_line:\n    - l:\n        path: /etc/x\n        line: a=1\n", tt.file)
			if err := os.WriteFile(m, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := graph.Load([]string{m}, graph.Options{})
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("load: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("load: %v, want an error containing %q", err, tt.want)
			}
		})
	}
}
