package mount

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/resources/internal/textfile"
	"github.com/reactive-ccm/ccm/watchers/mountinfo"
)

// TestFstabEdit is persist's decision table: the mount point's lines in
// fstab (none, the same, another, several, commented out, escaped) to
// the edit and the difference a check shows.
func TestFstabEdit(t *testing.T) {
	const want = `ccm-data /srv/my\040data tmpfs size=1m,ro 0 0`
	m := &mount{point: "/srv/my data", ensure: Mounted, device: "ccm-data", fstype: "tmpfs", options: []string{"size=1m", "ro"}}
	host := []string{"# <file system> <mount point>", "/dev/sda1 / ext4 defaults 0 1"}
	for _, c := range []struct {
		name   string
		ensure string
		lines  []string
		kind   string
		at     int
		out    []string
		diff   string
	}{
		{name: "missing", lines: host, kind: textfile.Added, at: 3, out: append(host[:2:2], want),
			diff: "fstab absent → " + want},
		{name: "the same", lines: append(host[:2:2], want)},
		{name: "the same, other spacing", lines: []string{"ccm-data\t/srv/my\\040data  tmpfs size=1m,ro 0 0"}},
		{name: "commented out", lines: []string{"#ccm-data /srv/my\\040data tmpfs defaults 0 0"}, kind: textfile.Added, at: 2,
			out: []string{"#ccm-data /srv/my\\040data tmpfs defaults 0 0", want}, diff: "fstab absent → " + want},
		{name: "another device", lines: []string{"old /srv/my\\040data tmpfs defaults 0 0", host[1]}, kind: textfile.Replaced, at: 1,
			out: []string{want, host[1]}, diff: "fstab old /srv/my\\040data tmpfs defaults 0 0 → " + want + " (line 1)"},
		{name: "twice", lines: []string{host[1], want, "x /srv/my\\040data tmpfs defaults 0 0"}, kind: textfile.Replaced, at: 2,
			out: []string{host[1], want}, diff: "fstab " + want + " → " + want + " (line 2)"},
		{name: "absent, there", ensure: Absent, lines: []string{want, host[1], "x /srv/my\\040data tmpfs defaults 0 0"}, kind: textfile.Removed, at: 1,
			out: []string{host[1]}, diff: "fstab " + want + " → absent"},
		{name: "absent, missing", ensure: Absent, lines: host},
		{name: "another point", lines: []string{"ccm-data /srv/my tmpfs size=1m,ro 0 0"}, kind: textfile.Added, at: 2,
			out: []string{"ccm-data /srv/my tmpfs size=1m,ro 0 0", want}, diff: "fstab absent → " + want},
	} {
		t.Run(c.name, func(t *testing.T) {
			mm := *m
			if c.ensure != "" {
				mm.ensure = c.ensure
			}
			e := mm.edit(c.lines)
			if e.kind != c.kind || e.kind != "" && (e.at != c.at || !reflect.DeepEqual(e.out, c.out)) {
				t.Fatalf("edit %+v, want %s at %d to %q", e, c.kind, c.at, c.out)
			}
			if e.kind != "" {
				if got := e.difference().String(); got != c.diff {
					t.Errorf("difference %q, want %q", got, c.diff)
				}
			}
		})
	}
	if got := (&mount{point: "/mnt", device: "d", fstype: "tmpfs"}).fstabLine(); got != "d /mnt tmpfs defaults 0 0" {
		t.Errorf("line without options %q", got)
	}
}

// TestDecision: what differs and what noop says for each state of the
// point against each ensure.
func TestDecision(t *testing.T) {
	wanted := &mountinfo.Entry{Source: "ccm-data", FSType: "tmpfs", Options: "rw,noexec"}
	other := &mountinfo.Entry{Source: "intruder", FSType: "tmpfs", Options: "rw"}
	for _, c := range []struct {
		name   string
		ensure string
		v      view
		diff   string
		noop   string
	}{
		{name: "mounted, nothing there", ensure: Mounted, v: view{}, diff: "unmounted → mounted", noop: "Would have mounted ccm-data on /mnt/x"},
		{name: "mounted, there", ensure: Mounted, v: view{top: wanted}},
		{name: "mounted, another on top", ensure: Mounted, v: view{top: other, wrong: true},
			diff: "device tmpfs intruder → tmpfs ccm-data", noop: "Would have unmounted intruder from /mnt/x and mounted ccm-data"},
		{name: "mounted, read-write", ensure: Mounted, v: view{top: wanted, roDiffers: true}, diff: "options rw → ro", noop: "Would have remounted /mnt/x ro"},
		{name: "unmounted, there", ensure: Unmounted, v: view{top: other}, diff: "mounted → unmounted", noop: "Would have unmounted /mnt/x"},
		{name: "unmounted, nothing there", ensure: Unmounted, v: view{}},
		{name: "absent, there, fstab line", ensure: Absent, v: view{top: wanted, line: lineEdit{kind: textfile.Removed, old: "a /mnt/x tmpfs defaults 0 0", at: 3}},
			diff: "mounted → absent; fstab a /mnt/x tmpfs defaults 0 0 → absent",
			noop: "Would have removed the line for /mnt/x from /etc/fstab; unmounted /mnt/x"},
		{name: "mounted, fstab line added", ensure: Mounted, v: view{top: wanted, line: lineEdit{kind: textfile.Added, at: 2, out: []string{"x", "l"}}},
			diff: "fstab absent → l", noop: "Would have added the line for /mnt/x to /etc/fstab"},
		{name: "mounted, fstab line replaced", ensure: Mounted, v: view{line: lineEdit{kind: textfile.Replaced, old: "o", at: 1, out: []string{"l"}}},
			diff: "unmounted → mounted; fstab o → l (line 1)", noop: "Would have replaced line 1 of /etc/fstab; mounted ccm-data on /mnt/x"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := &mount{point: "/mnt/x", ensure: c.ensure, device: "ccm-data", fstype: "tmpfs", options: []string{"ro"}}
			var got []string
			for _, d := range m.differences(&c.v) {
				got = append(got, d.String())
			}
			if g := strings.Join(got, "; "); g != c.diff {
				t.Errorf("differences %q, want %q", g, c.diff)
			}
			if c.noop != "" {
				if g := m.noopMessage(&c.v); g != c.noop {
					t.Errorf("noop message %q, want %q", g, c.noop)
				}
			}
		})
	}
}

func TestMountArgsAndReadOnly(t *testing.T) {
	m := &mount{point: "/mnt/x", device: "d", fstype: "tmpfs"}
	if got := strings.Join(m.mountArgs(), " "); got != "-t tmpfs d /mnt/x" {
		t.Errorf("args %q", got)
	}
	m.options = []string{"size=1m", "ro"}
	if got := strings.Join(m.mountArgs(), " "); got != "-t tmpfs -o size=1m,ro d /mnt/x" {
		t.Errorf("args with options %q", got)
	}
	for opts, want := range map[string]bool{"ro": true, "rw,ro": true, "ro,noexec": true, "rw": false, "errors=remount-ro": false, "": false} {
		if got := readOnly(opts); got != want {
			t.Errorf("readOnly(%q) = %v", opts, got)
		}
	}
}

// TestDeviceNumber: sources that are not block devices compare by name;
// a missing path or a tag no device has is ErrNoDevice, blkid asked only
// when udev has no link.
func TestDeviceNumber(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var asked []string
	blkid := func(out string, code int) command.Runner {
		return command.RunnerFunc(func(_ context.Context, c command.Cmd) (command.Result, error) {
			asked = append(asked, c.Name+" "+strings.Join(c.Args, " "))
			return command.Result{Stdout: []byte(out), ExitCode: code}, nil
		})
	}
	for _, c := range []struct {
		device string
		runner command.Runner
		want   string
		err    error
	}{
		{device: "tmpfs", runner: blkid("", 2)},
		{device: "server:/export", runner: blkid("", 2)},
		{device: file, runner: blkid("", 2)},
		{device: "/dev/null", runner: blkid("", 2)},
		{device: "/dev/ccm-no-such", runner: blkid("", 2), err: ErrNoDevice},
		{device: "LABEL=ccm-no-such-label", runner: blkid("", 2), err: ErrNoDevice},
		{device: "UUID=ccm-no-such-uuid", runner: blkid(file+"\n", 0)},
		{device: "PARTUUID=ccm-no-such", runner: blkid(file+"\n", 2), err: ErrNoDevice},
		{device: "OTHER=x", runner: blkid("", 2)},
	} {
		asked = nil
		got, err := deviceNumber(t.Context(), c.runner, c.device)
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("deviceNumber(%q) = %q, %v; want %q, %v", c.device, got, err, c.want, c.err)
		}
		if tag, value, ok := strings.Cut(c.device, "="); ok && byTag[tag] != "" {
			if want := "blkid --match-token " + tag + "=" + value + " --output device"; len(asked) != 1 || asked[0] != want {
				t.Errorf("%s: ran %q, want %q", c.device, asked, want)
			}
		} else if len(asked) != 0 {
			t.Errorf("%s: ran %q, want no blkid", c.device, asked)
		}
	}
}
