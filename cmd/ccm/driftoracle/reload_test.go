package driftoracle_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestReloadsLeaveNothingBehind edits the manifest 100 times, each time
// giving every managed file a new content, and checks that every file
// follows each edit, and that the daemon's resource use is bounded as
// after bursts (see usage): 100 reloads once took its threads from 10 to
// 21, the high-water mark of the system calls its repairs blocked in.
func TestReloadsLeaveNothingBehind(t *testing.T) {
	o := prepare(t, config{fs: "tmpfs"})
	o.replay = "go test ./cmd/ccm/driftoracle -count=1 -run 'TestReloadsLeaveNothingBehind$'"
	dir := filepath.Join(o.base, "reload")
	rs := []*resource{{kind: dirKind, path: dir, mode: 0o755, owner: owners[0], group: groups[0]}}
	for i := range 100 {
		rs = append(rs, &resource{kind: fileKind, path: filepath.Join(dir, fmt.Sprintf("f%03d", i)), mode: 0o644,
			owner: owners[0], group: groups[0], content: fmt.Appendf(nil, "file %d\n", i)})
	}
	o.launch(rs)
	if bad := o.settle(time.Now(), nil); len(bad) > 0 {
		o.fail("startup", time.Now(), nil, bad)
	}
	o.usage.sample(t, o.d)
	m := filepath.Join(filepath.Dir(o.base), "manifest.yaml")
	for reload := range 100 {
		for i, r := range rs[1:] {
			r.content = fmt.Appendf(nil, "file %d, reload %d\n", i, reload)
		}
		began := time.Now()
		// Atomically, so that no reload reads half a manifest.
		if err := os.WriteFile(m+".new", []byte(manifest(rs)), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(m+".new", m); err != nil {
			t.Fatal(err)
		}
		if bad := o.settle(began, nil); len(bad) > 0 {
			o.fail(fmt.Sprintf("reload %d", reload), began, nil, bad)
		}
		o.usage.sample(t, o.d)
	}
	o.usage.check(t, o.d, o.c)
}
