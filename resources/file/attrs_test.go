package file_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

const helloProps = "ensure: present\ncontent: hello\nowner: root\ngroup: root\nmode: \"0644\"\n"

// TestAttributeDriftIsFixedInPlace: a file whose content is right is only
// chown'ed or chmod'ed, so its inode and modification time stay.
func TestAttributeDriftIsFixedInPlace(t *testing.T) {
	tests := []struct {
		name   string
		drift  func(path string) error
		reason string
	}{
		{"mode", func(p string) error { return os.Chmod(p, 0o600) }, "mode 0600 → 0644"},
		{"owner", func(p string) error { return os.Chown(p, 54321, 0) }, "owner 54321 → root"},
		{"group", func(p string) error { return os.Chown(p, 0, 54321) }, "group 54321 → root"},
		{"owner, group and mode", func(p string) error {
			if err := os.Chown(p, 54321, 54322); err != nil {
				return err
			}
			return os.Chmod(p, 0o640)
		}, "owner 54321 → root; group 54322 → root; mode 0640 → 0644"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f")
			resourcetest.WriteFile(t, path, "hello", 0o644)
			old := time.Now().Add(-time.Hour).Truncate(time.Second)
			if err := os.Chtimes(path, old, old); err != nil {
				t.Fatal(err)
			}
			if err := tt.drift(path); err != nil {
				t.Fatal(err)
			}
			before := stat(t, path)
			out, err := resources.Converge(t.Context(), build(t, path, helloProps), false, false)
			if err != nil {
				t.Fatal(err)
			}
			if out.Before.Reason() != tt.reason {
				t.Errorf("reason %q, want %q", out.Before.Reason(), tt.reason)
			}
			after := stat(t, path)
			if after.Ino != before.Ino || after.Mtim != before.Mtim {
				t.Errorf("file was rewritten: inode %d -> %d, mtime %v -> %v", before.Ino, after.Ino, before.Mtim, after.Mtim)
			}
			if after.Uid != 0 || after.Gid != 0 || after.Mode&0o7777 != 0o644 {
				t.Errorf("attributes %d:%d %04o, want 0:0 0644", after.Uid, after.Gid, after.Mode&0o7777)
			}
		})
	}
}

// TestContentDriftReplacesAtomically: new content lands in a new inode
// renamed over the old one, with owner and mode already right.
func TestContentDriftReplacesAtomically(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	resourcetest.WriteFile(t, path, "tampered", 0o600)
	before := stat(t, path)
	out, err := resources.Converge(t.Context(), build(t, path, helloProps), false, false)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("content %s → %s (+1 −1 lines); mode 0600 → 0644", digest("tampered"), digest("hello"))
	if out.Before.Reason() != want {
		t.Errorf("reason %q, want %q", out.Before.Reason(), want)
	}
	if after := stat(t, path); after.Ino == before.Ino {
		t.Error("content was rewritten in place, not replaced")
	}
	isFile("hello", 0o644)(t, path)
}

func TestNumericOwnerAndGroup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	r := build(t, path, "ensure: present\ncontent: x\nowner: 1234\ngroup: \"2345\"\nmode: \"0640\"\n")
	resourcetest.Converge(t.Context(), t, r, false, false)
	if st := stat(t, path); st.Uid != 1234 || st.Gid != 2345 {
		t.Errorf("owned by %d:%d, want 1234:2345", st.Uid, st.Gid)
	}
	if out := resourcetest.Converge(t.Context(), t, r, false, false); out.Applied {
		t.Errorf("second converge applied: %+v", out.Before)
	}
}

func TestUnknownOwnerFailsTheCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	r := build(t, path, "ensure: present\ncontent: x\nowner: ccm-fixture-nobody\ngroup: root\nmode: \"0640\"\n")
	want := `owner: no such user "ccm-fixture-nobody"`
	if _, err := resources.Converge(t.Context(), r, false, false); err == nil || err.Error() != want {
		t.Errorf("creating: got %v, want %s", err, want)
	}
	resourcetest.WriteFile(t, path, "x", 0o640)
	if _, err := r.Check(t.Context()); err == nil || err.Error() != want {
		t.Errorf("checking: got %v, want %s", err, want)
	}
}

// digest is how differences name content.
func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:4])
}
