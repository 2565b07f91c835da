package facts

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/shirou/gopsutil/v4/host"
)

// hostInfo is gopsutil's host.InfoWithContext, field for field, without
// its one slow part. gopsutil looks for LSB data first, and on a host
// without /etc/lsb-release it runs /usr/bin/lsb_release with no option,
// which prints nothing (the Debian and lsb-release-minimal scripts alike)
// and, being a shell script that spawns cut, tr and getopt, costs tens of
// milliseconds. Where that empty answer decides nothing, on a Debian host
// (its platform and version come from /etc/debian_version), the platform
// is read from the files directly; anywhere else gopsutil decides.
func hostInfo(ctx context.Context) (*host.InfoStat, error) {
	info := &host.InfoStat{OS: runtime.GOOS}
	var errs []error
	keep := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	var err error
	info.Hostname, err = os.Hostname()
	keep(err)
	info.Platform, info.PlatformFamily, info.PlatformVersion, err = platform(ctx, "/")
	keep(err)
	info.KernelVersion, err = host.KernelVersionWithContext(ctx)
	keep(err)
	info.KernelArch, err = host.KernelArch()
	keep(err)
	info.VirtualizationSystem, info.VirtualizationRole, err = host.VirtualizationWithContext(ctx)
	keep(err)
	info.BootTime, err = host.BootTimeWithContext(ctx)
	keep(err)
	info.Uptime, err = host.UptimeWithContext(ctx)
	keep(err)
	info.Procs, err = procs()
	keep(err)
	info.HostID, err = host.HostIDWithContext(ctx)
	keep(err)
	return info, errors.Join(errs...)
}

// platform returns what gopsutil's PlatformInformation would, without
// running lsb_release on a Debian host (see hostInfo); root is where the
// host's files are ("/"; a test's tree).
func platform(ctx context.Context, root string) (name, family, version string, err error) {
	if !debianWithoutLSB(root) {
		return host.PlatformInformationWithContext(ctx)
	}
	name = "debian"
	if hasContent(filepath.Join(root, "/usr/bin/raspi-config")) {
		name = "raspbian"
	}
	return name, "debian", firstLine(filepath.Join(root, "/etc/debian_version")), nil
}

// debianWithoutLSB reports whether gopsutil would run lsb_release (no
// /etc/lsb-release, the program installed) and then settle the platform
// by /etc/debian_version, which an empty LSB answer makes it do: the
// release files it looks at before that one are absent.
func debianWithoutLSB(root string) bool {
	at := func(path string) string { return filepath.Join(root, path) }
	// HOST_ETC points gopsutil at another /etc: let it look there.
	if os.Getenv("HOST_ETC") != "" || exists(at("/etc/lsb-release")) || !exists(at("/usr/bin/lsb_release")) || !hasContent(at("/etc/debian_version")) {
		return false
	}
	for _, f := range []string{"/etc/oracle-release", "/etc/enterprise-release", "/etc/slackware-version"} {
		if hasContent(at(f)) {
			return false
		}
	}
	return true
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// hasContent is gopsutil's test for a release file: more than 4 bytes.
func hasContent(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Size() > 4
}

func firstLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan()
	return sc.Text()
}

// procs counts the processes, as gopsutil does: the numeric names in /proc.
func procs() (uint64, error) {
	f, err := os.Open("/proc")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	var n uint64
	for _, name := range names {
		if _, perr := strconv.ParseUint(name, 10, 64); perr == nil {
			n++
		}
	}
	return n, err
}
