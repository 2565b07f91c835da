package mount_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/mount"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
	"github.com/reactive-ccm/ccm/watchers/mountinfo"
	"golang.org/x/sys/unix"
)

// build makes a mount from its point and properties.
var build = resourcetest.Builder("mount")

// top is the topmost mount at point; nil when none.
func top(t *testing.T, point string) *mountinfo.Entry {
	t.Helper()
	b := resourcetest.ReadFile(t, mountinfo.Path)
	var e *mountinfo.Entry
	for _, m := range mountinfo.Parse(b) {
		if m.Point == point {
			e = &m
		}
	}
	return e
}

// point is a fresh mount point, unmounted at the end of the test.
func point(t *testing.T) string {
	t.Helper()
	sandbox.Require(t)
	p := filepath.Join(t.TempDir(), "mnt")
	t.Cleanup(func() {
		for top(t, p) != nil {
			if err := unix.Unmount(p, unix.MNT_DETACH); err != nil {
				t.Errorf("unmounting %s: %v", p, err)
				return
			}
		}
	})
	return p
}

func TestMountsOnceAndUnmounts(t *testing.T) {
	p := point(t)
	r := build(t, p, "device: ccm-data\nfstype: tmpfs\noptions: [size=1m, noexec]")
	out := resourcetest.Converge(t.Context(), t, r, false, false)
	if !out.Change.Changed || out.Before.Reason() != "unmounted → mounted" {
		t.Fatalf("first run %+v", out)
	}
	if e := top(t, p); e == nil || e.FSType != "tmpfs" || e.Source != "ccm-data" || !strings.Contains(e.Options, "noexec") {
		t.Fatalf("mount %+v", e)
	}
	if again := resourcetest.Converge(t.Context(), t, r, false, false); again.Applied {
		t.Errorf("second run %+v, want nothing to do", again)
	}
	resourcetest.Converge(t.Context(), t, build(t, p, "ensure: unmounted"), false, false)
	if e := top(t, p); e != nil {
		t.Errorf("after unmounting %+v", e)
	}
}

func TestWrongMountOnTopAndReadOnly(t *testing.T) {
	p := point(t)
	r := build(t, p, "device: ccm-data\nfstype: tmpfs\noptions: [ro]")
	resourcetest.Converge(t.Context(), t, r, false, false)
	sandbox.Command(t, "mount", "-t", "tmpfs", "intruder", p)
	out := resourcetest.Converge(t.Context(), t, r, false, false)
	if out.Before.Reason() != "device tmpfs intruder → tmpfs ccm-data" {
		t.Errorf("drift %q", out.Before.Reason())
	}
	if e := top(t, p); e == nil || e.Source != "ccm-data" {
		t.Fatalf("after the repair %+v", e)
	}
	sandbox.Command(t, "mount", "-o", "remount,rw", p)
	out = resourcetest.Converge(t.Context(), t, r, false, false)
	if out.Before.Reason() != "options rw → ro" {
		t.Errorf("drift %q", out.Before.Reason())
	}
	if e := top(t, p); e == nil || !strings.HasPrefix(e.Options, "ro") {
		t.Errorf("after the repair %+v", e)
	}
}

func TestPersist(t *testing.T) {
	p := point(t)
	before := resourcetest.ReadFile(t, "/etc/fstab")
	t.Cleanup(func() { resourcetest.WriteFile(t, "/etc/fstab", before, 0o644) })
	resourcetest.WriteFile(t, "/etc/fstab", before+"# host\nold "+p+" tmpfs defaults 0 0\n", 0o644)
	r := build(t, p, "device: ccm-data\nfstype: tmpfs\npersist: true")
	out := resourcetest.Converge(t.Context(), t, r, false, true)
	if want := fmt.Sprintf("Would have replaced line %d of /etc/fstab; mounted ccm-data on %s", len(strings.Split(before, "\n"))+1, p); out.Change.NoopMessage != want {
		t.Errorf("noop message %q, want %q", out.Change.NoopMessage, want)
	}
	resourcetest.Converge(t.Context(), t, r, false, false)
	if got, want := resourcetest.ReadFile(t, "/etc/fstab"), before+"# host\nccm-data "+p+" tmpfs defaults 0 0\n"; got != want {
		t.Errorf("fstab %q, want %q", got, want)
	}
	resourcetest.Converge(t.Context(), t, build(t, p, "ensure: absent\npersist: true"), false, false)
	if got, want := resourcetest.ReadFile(t, "/etc/fstab"), before+"# host\n"; got != want || top(t, p) != nil {
		t.Errorf("after absent fstab %q, want %q; mounted %v", got, want, top(t, p))
	}
}

// TestBlockDeviceByUUIDAndLabel: an ext4 image on a loop device, named by
// UUID= and LABEL=, compares by device number.
func TestBlockDeviceByUUIDAndLabel(t *testing.T) {
	p := point(t)
	img := filepath.Join(t.TempDir(), "fs.img")
	sandbox.Command(t, "truncate", "--size", "8M", img)
	const uuid = "0c3c4d6e-2b1a-4c8e-9f00-ccc0ccc0ccc0"
	sandbox.Command(t, "mkfs.ext4", "-q", "-L", "ccmtest", "-U", uuid, img)
	out, err := exec.Command("losetup", "--find", "--show", img).CombinedOutput()
	if err != nil {
		t.Skipf("no loop device: %v: %s", err, out)
	}
	loop := strings.TrimSpace(string(out))
	t.Cleanup(func() { sandbox.Command(t, "losetup", "--detach", loop) })
	for _, device := range []string{"UUID=" + uuid, "LABEL=ccmtest", loop} {
		t.Run(device, func(t *testing.T) {
			r := build(t, p, "device: "+device+"\nfstype: ext4")
			resourcetest.Converge(t.Context(), t, r, false, false)
			if e := top(t, p); e == nil || e.Source != loop {
				t.Fatalf("mount %+v, want %s", e, loop)
			}
			if again := resourcetest.Converge(t.Context(), t, r, false, false); again.Applied {
				t.Errorf("second run %+v, want nothing to do", again)
			}
			resourcetest.Converge(t.Context(), t, build(t, p, "ensure: unmounted"), false, false)
		})
	}
}

// TestValidation: each problem at its position, the resource's for the
// name and for a missing property.
func TestValidation(t *testing.T) {
	resourcetest.Rejects(t, "mount", []resourcetest.Rejected{
		{Case: "relative", Name: "mnt", Props: "device: d\nfstype: tmpfs", Want: "test.yaml:1:1: mount#mnt: the mount point must be an absolute path other than /"},
		{Case: "root", Name: "/", Props: "device: d\nfstype: tmpfs", Want: "must be an absolute path other than /"},
		{Case: "unclean", Name: "/mnt/x/", Props: "device: d\nfstype: tmpfs", Want: "the mount point must be clean (no ., .., // or trailing /): write /mnt/x"},
		{Case: "tab", Name: "/mnt/a\tb", Props: "device: d\nfstype: tmpfs", Want: "must not hold a tab or a newline"},
		{Case: "device required", Name: "/mnt/x", Props: "fstype: tmpfs", Want: "test.yaml:1:1: mount#/mnt/x: device is required with ensure: mounted"},
		{Case: "fstype for fstab", Name: "/mnt/x", Props: "ensure: unmounted\npersist: true\ndevice: d", Want: "fstype is required with ensure: unmounted"},
		{Case: "space in device", Name: "/mnt/x", Props: "fstype: tmpfs\ndevice: \"a b\"", Want: "test.yaml:2:9: device: must not hold spaces"},
		{Case: "bad ensure", Name: "/mnt/x", Props: "ensure: up\ndevice: d\nfstype: tmpfs", Want: "test.yaml:1:9: ensure"},
		{Case: "comma in option", Name: "/mnt/x", Props: "device: d\nfstype: tmpfs\noptions: [\"ro,noexec\"]", Want: `test.yaml:3:10: options: item 1, "ro,noexec", is not one option`},
		{Case: "empty option", Name: "/mnt/x", Props: "device: d\nfstype: tmpfs\noptions: [ro, \"\"]", Want: `options: item 2, "", is not one option`},
		{Case: "bind", Name: "/mnt/x", Props: "device: /srv\nfstype: none\noptions: [bind]", Want: "bind is not supported"},
		{Case: "remount", Name: "/mnt/x", Props: "device: d\nfstype: tmpfs\noptions: [remount]", Want: "remount is not supported"},
	})
	// Unmounting needs neither device nor fstype.
	resourcetest.MustBuild(t, "mount", "/mnt/x", "ensure: unmounted", t.TempDir())
	resourcetest.MustBuild(t, "mount", "/mnt/x", "ensure: absent\npersist: true", t.TempDir())
}

// TestStackedMounts: mounts piled on the point are taken off until the
// wanted one is on top, and all of them for ensure: unmounted; a missing
// mount point is created.
func TestStackedMounts(t *testing.T) {
	p := point(t)
	r := build(t, p, "device: ccm-data\nfstype: tmpfs")
	resourcetest.Converge(t.Context(), t, r, false, false)
	for _, src := range []string{"one", "two", "three"} {
		sandbox.Command(t, "mount", "-t", "tmpfs", src, p)
	}
	out := resourcetest.Converge(t.Context(), t, r, false, false)
	if out.Before.Reason() != "device tmpfs three → tmpfs ccm-data" {
		t.Errorf("drift %q", out.Before.Reason())
	}
	if e := top(t, p); e == nil || e.Source != "ccm-data" {
		t.Fatalf("after the repair %+v", e)
	}
	sandbox.Command(t, "mount", "-t", "tmpfs", "four", p)
	resourcetest.Converge(t.Context(), t, build(t, p, "ensure: unmounted"), false, false)
	if e := top(t, p); e != nil {
		t.Errorf("after unmounting %+v is still there", e)
	}
	deep := filepath.Join(p, "a", "b")
	t.Cleanup(func() { _ = unix.Unmount(deep, unix.MNT_DETACH) })
	resourcetest.Converge(t.Context(), t, build(t, deep, "device: ccm-deep\nfstype: tmpfs"), false, false)
	if e := top(t, deep); e == nil || e.Source != "ccm-deep" {
		t.Errorf("mount on a created point %+v", e)
	}
}

// TestInspect: ccm status shows the topmost mount at a point, unmounted
// when none, and refuses a relative path.
func TestInspect(t *testing.T) {
	p := point(t)
	typ, _ := resources.Lookup("mount")
	show := func(name string) (m map[string]any) {
		if err := json.Unmarshal([]byte(resourcetest.Inspect(t, "mount", name)), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	if got := fmt.Sprint(show(p + "/")); got != fmt.Sprintf("map[ensure:unmounted path:%s provider:mount]", p) {
		t.Errorf("unmounted %s", got)
	}
	sandbox.Command(t, "mkdir", p)
	sandbox.Command(t, "mount", "-t", "tmpfs", "-o", "ro,size=1m", "ccm-show", p)
	md := show(p)
	if md["ensure"] != "mounted" || md["source"] != "ccm-show" || md["fstype"] != "tmpfs" || !strings.HasPrefix(md["options"].(string), "ro") ||
		!strings.Contains(md["super_options"].(string), "size=1024k") || !strings.Contains(md["device"].(string), ":") {
		t.Errorf("mounted %v", md)
	}
	if _, err := typ.Inspect(t.Context(), "mnt"); err == nil || err.Error() != `"mnt" is not an absolute path` {
		t.Errorf("inspecting a relative path: %v", err)
	}
}

// TestInstance: a mounted point is owned (what is under it waits for the
// mount) and watched in the mount table; persist claims the point's line
// of fstab and watches the file.
func TestInstance(t *testing.T) {
	resourcetest.Declares(t, "mount", "/mnt/x", []resourcetest.Declared{
		{Props: "device: d\nfstype: tmpfs",
			Want: "ensure mounted independent false owns [/mnt/x] uses [/mnt/x] claims [] paths [] mounts [/mnt/x]"},
		{Props: "ensure: unmounted",
			Want: "ensure unmounted independent false owns [] uses [/mnt/x] claims [] paths [] mounts [/mnt/x]"},
		{Props: "ensure: absent\npersist: true",
			Want: "ensure absent independent false owns [] uses [/mnt/x] claims [{/etc/fstab false the line for /mnt/x}] paths [/etc/fstab] mounts [/mnt/x]"},
	})
}

// TestPersistUnmounted: ensure unmounted with persist keeps the fstab line
// and mounts nothing.
func TestPersistUnmounted(t *testing.T) {
	p := point(t)
	before := resourcetest.ReadFile(t, "/etc/fstab")
	t.Cleanup(func() { resourcetest.WriteFile(t, "/etc/fstab", before, 0o644) })
	r := build(t, p, "ensure: unmounted\npersist: true\ndevice: ccm-data\nfstype: tmpfs\noptions: [noauto]")
	out := resourcetest.Converge(t.Context(), t, r, false, false)
	line := "ccm-data " + p + " tmpfs noauto 0 0"
	if out.Before.Reason() != "fstab absent → "+line {
		t.Errorf("reason %q", out.Before.Reason())
	}
	if got := resourcetest.ReadFile(t, "/etc/fstab"); got != before+line+"\n" || top(t, p) != nil {
		t.Errorf("fstab %q, mounted %v", got, top(t, p))
	}
}

// TestFstabLinkIsNotFollowed: persist never writes through a symlink
// at /etc/fstab.
func TestFstabLinkIsNotFollowed(t *testing.T) {
	p := point(t)
	before := resourcetest.ReadFile(t, "/etc/fstab")
	victim := filepath.Join(t.TempDir(), "victim")
	resourcetest.WriteFile(t, victim, "precious\n", 0o600)
	if err := os.Rename("/etc/fstab", "/etc/fstab.ccm-test"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = os.Remove("/etc/fstab")
		if err := os.Rename("/etc/fstab.ccm-test", "/etc/fstab"); err != nil {
			t.Error(err)
		}
		if got := resourcetest.ReadFile(t, "/etc/fstab"); got != before {
			t.Errorf("fstab not restored: %q", got)
		}
	})
	if err := os.Symlink(victim, "/etc/fstab"); err != nil {
		t.Fatal(err)
	}
	_, err := resources.Converge(t.Context(), build(t, p, "device: ccm-data\nfstype: tmpfs\npersist: true"), false, false)
	if err == nil || !strings.Contains(err.Error(), "/etc/fstab is not a regular file: a symlink is never followed") {
		t.Errorf("converge: %v, want a refusal", err)
	}
	if got := resourcetest.ReadFile(t, victim); got != "precious\n" || top(t, p) != nil {
		t.Errorf("victim holds %q, mounted %v", got, top(t, p))
	}
}

// TestReadWriteWantedAndMissingUUID: a read-only mount where read-write
// is wanted is remounted rw; a UUID no device has is an error naming it,
// the mount left alone.
func TestReadWriteWantedAndMissingUUID(t *testing.T) {
	p := point(t)
	sandbox.Command(t, "mkdir", p)
	sandbox.Command(t, "mount", "-t", "tmpfs", "-o", "ro", "ccm-data", p)
	out := resourcetest.Converge(t.Context(), t, build(t, p, "device: ccm-data\nfstype: tmpfs"), false, false)
	if out.Before.Reason() != "options ro → rw" {
		t.Errorf("drift %q", out.Before.Reason())
	}
	if e := top(t, p); e == nil || !strings.HasPrefix(e.Options, "rw") {
		t.Errorf("after the repair %+v", e)
	}
	_, err := resources.Converge(t.Context(), build(t, p, "device: UUID=ccc0ccc0-0000-4000-8000-00000000ccc0\nfstype: tmpfs"), false, false)
	if !errors.Is(err, mount.ErrNoDevice) || !strings.Contains(err.Error(), "with UUID=ccc0ccc0-0000-4000-8000-00000000ccc0") {
		t.Errorf("converge with a missing UUID: %v", err)
	}
	if e := top(t, p); e == nil || e.Source != "ccm-data" {
		t.Errorf("the mount was touched: %+v", e)
	}
}
