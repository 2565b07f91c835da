package driftoracle_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
	"github.com/reactive-ccm/ccm/watchers/mountinfo"
	"golang.org/x/sys/unix"
)

// Kernel state: parameters of the sandbox's network namespace, and
// tmpfs mounts in its mount namespace, under /media (a tmpfs of the
// sandbox). They join only in a sandbox: outside one they would be the
// host's.

// sysctls are per-network-namespace parameters and the values held.
var sysctls = []struct{ key, want, other string }{
	{"net.ipv4.conf.lo.accept_local", "1", "0"},
	{"net.ipv4.conf.lo.log_martians", "1", "0"},
	{"net.ipv4.conf.lo.rp_filter", "2", "0"},
	{"net.ipv4.icmp_echo_ignore_all", "1", "0"},
}

var sysctlKind = &kind{
	name:         "sysctl",
	generate:     generateSysctls,
	modes:        []os.FileMode{0o644},
	manifestType: "sysctl",
	entry:        func(r *resource) string { return fmt.Sprintf("{value: %q, poll_interval: 50ms}", r.content) },
	holds: func(r *resource) string {
		b, err := os.ReadFile(procSys(r.path))
		if err != nil {
			return err.Error()
		}
		if got := strings.TrimSpace(string(b)); got != string(r.content) {
			return fmt.Sprintf("value %s, want %s", got, r.content)
		}
		return ""
	},
	tampers: []tamper{
		{"sysctl -w", func(h *hand, r *resource) error {
			for _, s := range sysctls {
				if s.key == r.path {
					return os.WriteFile(procSys(r.path), []byte(s.other), 0)
				}
			}
			return fmt.Errorf("no sysctl %s", r.path)
		}},
	},
}

func generateSysctls(g *gen, k *kind) {
	if !sandbox.Inside() {
		return
	}
	for _, s := range sysctls {
		r := g.add(k, s.key, []byte(s.want))
		r.owner, r.group = owners[0], groups[0]
	}
}

func procSys(key string) string { return "/proc/sys/" + strings.ReplaceAll(key, ".", "/") }

// mountsDir holds the mount points: a tmpfs of the sandbox, so that no
// mount is left on the host's filesystems.
const mountsDir = "/media/ccm-driftoracle"

var mountKind = &kind{
	name:         "mount",
	generate:     generateMounts,
	modes:        []os.FileMode{0o755},
	manifestType: "mount",
	entry: func(r *resource) string {
		return fmt.Sprintf("{device: %s, fstype: tmpfs, options: [size=1m]}", r.content)
	},
	holds: func(r *resource) string {
		b, err := os.ReadFile(mountinfo.Path)
		if err != nil {
			return err.Error()
		}
		var top *mountinfo.Entry
		for _, e := range mountinfo.Parse(string(b)) {
			if e.Point == r.path {
				top = &e
			}
		}
		switch {
		case top == nil:
			return "nothing mounted"
		case top.Source != string(r.content) || top.FSType != "tmpfs":
			return fmt.Sprintf("%s %s mounted, want tmpfs %s", top.FSType, top.Source, r.content)
		case strings.HasPrefix(top.Options, "ro"):
			return "mounted read-only"
		}
		return ""
	},
	tampers: []tamper{
		{"umount", func(_ *hand, r *resource) error { return unix.Unmount(r.path, 0) }},
		{"mount over", func(_ *hand, r *resource) error { return unix.Mount("intruder", r.path, "tmpfs", 0, "size=1m") }},
		{"remount read-only", func(_ *hand, r *resource) error {
			return unix.Mount("", r.path, "", unix.MS_REMOUNT|unix.MS_RDONLY, "")
		}},
	},
}

// mounts numbers the mount points across trees: each configuration's
// daemon has its own.
var mounts int

func generateMounts(g *gen, k *kind) {
	if !sandbox.Inside() {
		return
	}
	for range 3 {
		mounts++
		r := g.add(k, filepath.Join(mountsDir, fmt.Sprintf("m%d", mounts)), fmt.Appendf(nil, "ccm-oracle-%d", mounts))
		r.owner, r.group = owners[0], groups[0]
	}
}
