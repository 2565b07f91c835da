package mount

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/watchers/mountinfo"
	"golang.org/x/sys/unix"
)

// maxTable bounds the mount table read.
const maxTable = 64 << 20

// toolTimeout bounds one run of mount, umount or blkid.
const toolTimeout = time.Minute

// mounted returns the topmost mount at point in this process's mount
// table; nil when nothing is mounted there.
func mounted(point string) (*mountinfo.Entry, error) {
	b, err := safepath.Policy{}.ReadFile(mountinfo.Path, maxTable)
	if err != nil {
		return nil, err
	}
	var top *mountinfo.Entry
	for _, e := range mountinfo.Parse(string(b)) {
		if e.Point == point {
			top = &e
		}
	}
	return top, nil
}

// byTag are the directories udev keeps links to devices in, by tag.
var byTag = map[string]string{"UUID": "by-uuid", "LABEL": "by-label", "PARTUUID": "by-partuuid", "PARTLABEL": "by-partlabel"}

// deviceNumber is the "major:minor" of the block device device names (a
// path, UUID=, LABEL=...); "" when device is not a block device (tmpfs,
// server:/export), which is then compared by name.
func deviceNumber(ctx context.Context, runner command.Runner, device string) (string, error) {
	path := device
	if tag, value, ok := strings.Cut(device, "="); ok && byTag[tag] != "" {
		var err error
		if path, err = resolveTag(ctx, runner, tag, value); err != nil {
			return "", err
		}
	}
	if !strings.HasPrefix(path, "/") {
		return "", nil
	}
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		if errors.Is(err, unix.ENOENT) {
			return "", fmt.Errorf("%w: %s", ErrNoDevice, device)
		}
		return "", err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFBLK {
		return "", nil
	}
	return fmt.Sprintf("%d:%d", unix.Major(st.Rdev), unix.Minor(st.Rdev)), nil
}

// resolveTag finds the device with tag=value: udev's link when there is
// one, else blkid's answer (hosts and containers without udev).
func resolveTag(ctx context.Context, runner command.Runner, tag, value string) (string, error) {
	link := filepath.Join("/dev/disk", byTag[tag], value)
	if p, err := filepath.EvalSymlinks(link); err == nil {
		return p, nil
	}
	res, err := runner.Run(ctx, command.Cmd{Name: "blkid", Args: []string{"--match-token", tag + "=" + value, "--output", "device"}, Timeout: toolTimeout})
	if err != nil {
		return "", err
	}
	devices := strings.Fields(string(res.Stdout))
	if res.ExitCode != 0 || len(devices) == 0 {
		return "", fmt.Errorf("%w with %s=%s", ErrNoDevice, tag, value)
	}
	return devices[0], nil
}

// readOnly reports whether a mount's own options make it read-only.
func readOnly(options string) bool {
	return slices.Contains(strings.Split(options, ","), "ro")
}
