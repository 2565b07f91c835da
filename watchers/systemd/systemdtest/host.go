package systemdtest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// hostState is what the harness must leave as it found it.
type hostState struct {
	// units lists the host's /etc/systemd/system, with link targets.
	units []string
	// canary is a file in the host's /tmp that a tmpfiles run would delete.
	canary string
	// cgroups are the cgroup directories that existed before the boot.
	cgroups map[string]bool
	// mounts maps each host mount to its options: a remount inside the
	// namespace changes the options of a superblock the host shares.
	mounts map[string]string
}

const cgroupRoot = "/sys/fs/cgroup"

func snapshotHost() (hostState, error) {
	var h hostState
	if err := pruneStale(); err != nil {
		return h, err
	}
	var err error
	if h.units, err = listTree("/etc/systemd/system"); err != nil {
		return h, err
	}
	f, err := os.CreateTemp("/tmp", "ccm-systemdtest-canary-")
	if err != nil {
		return h, fmt.Errorf("systemdtest: %w", err)
	}
	h.canary = f.Name()
	if err := f.Close(); err != nil {
		return h, fmt.Errorf("systemdtest: %w", err)
	}
	h.cgroups = map[string]bool{}
	for _, d := range cgroupDirs() {
		h.cgroups[d] = true
	}
	h.mounts, err = mounts()
	return h, err
}

// verify reports every way the host differs from the snapshot.
func (h hostState) verify() error {
	var errs []error
	if _, err := os.Stat(h.canary); err != nil {
		errs = append(errs, fmt.Errorf("systemdtest: the host's /tmp was touched: canary %s: %w", h.canary, err))
	} else if err := os.Remove(h.canary); err != nil {
		errs = append(errs, fmt.Errorf("systemdtest: %w", err))
	}
	units, err := listTree("/etc/systemd/system")
	if err != nil {
		errs = append(errs, err)
	} else if !slices.Equal(units, h.units) {
		errs = append(errs, fmt.Errorf("systemdtest: the host's /etc/systemd/system changed:\nbefore %v\nafter  %v", h.units, units))
	}
	errs = append(errs, h.verifyMounts())
	return errors.Join(errs...)
}

// verifyMounts reports host mounts whose options changed; mounts that
// came or went meanwhile belong to other programs.
func (h hostState) verifyMounts() error {
	now, err := mounts()
	if err != nil {
		return err
	}
	var errs []error
	for m, opts := range h.mounts {
		if cur, ok := now[m]; ok && cur != opts {
			errs = append(errs, fmt.Errorf("systemdtest: host mount %s changed from %q to %q", m, opts, cur))
		}
	}
	return errors.Join(errs...)
}

// mounts reads this process's mount table: "device root mountpoint" to
// "mount options fstype source super options".
func mounts() (map[string]string, error) {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("systemdtest: %w", err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		f := strings.Fields(pre)
		if !ok || len(f) < 6 {
			return nil, fmt.Errorf("systemdtest: unexpected mountinfo line %q", line)
		}
		out[f[2]+" "+f[3]+" "+f[4]] = f[5] + " " + post
	}
	return out, nil
}

// pruneStale removes the empty unit cgroups a harness left when its test
// binary died before Stop. Only on hosts not run by systemd: there, no
// one else makes cgroups with unit names.
func pruneStale() error {
	if _, err := os.Stat("/run/systemd/system"); err == nil {
		return nil
	}
	return hostState{}.pruneCgroups()
}

// pruneCgroups removes the empty cgroups named like systemd units that the
// namespace's systemd created in the host's shared hierarchies, deepest
// first; rmdir fails on a cgroup that still has processes or children.
func (h hostState) pruneCgroups() error {
	dirs := cgroupDirs()
	slices.SortFunc(dirs, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	var errs []error
	for _, d := range dirs {
		if h.cgroups[d] || !unitNamed(filepath.Base(d)) {
			continue
		}
		if err := os.Remove(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("systemdtest: removing cgroup %s: %w", d, err))
		}
	}
	return errors.Join(errs...)
}

func unitNamed(name string) bool {
	for _, suffix := range []string{".scope", ".slice", ".service", ".mount", ".socket", ".swap"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// cgroupDirs lists every directory under the cgroup hierarchies.
func cgroupDirs() []string {
	var out []string
	// Errors are cgroups vanishing during the walk; they need no pruning.
	_ = filepath.WalkDir(cgroupRoot, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && p != cgroupRoot {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// listTree lists every entry under dir, with the targets of links.
func listTree(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		entry := p
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			entry += " -> " + target
		}
		out = append(out, entry)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("systemdtest: listing %s: %w", dir, err)
	}
	return out, nil
}
