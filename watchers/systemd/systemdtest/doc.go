// Package systemdtest boots a private systemd for tests: PID 1 of new pid,
// mount and uts namespaces, with its own tmpfs on /run and on
// /etc/systemd/system and every unit that would touch state shared with the
// host masked (boot.sh). Tests reach its bus from the host through
// DBUS_SYSTEM_BUS_ADDRESS, write unit files into its private
// /etc/systemd/system, and drive it with systemctl through nsenter.
//
// Guarantees:
//   - systemd is never started without the tmpfs mounts and the masks;
//     boot.sh refuses to run outside a private mount namespace.
//   - One harness runs at a time on a host (an exclusive lock file), because
//     every namespace shares the host's cgroup hierarchies.
//   - Stop kills the namespace's PID 1 by its PID, removes the empty unit
//     cgroups it left, and checks that the host's /tmp,
//     /etc/systemd/system and mount options are untouched.
//   - A test binary that dies without Stop takes the namespace with it
//     (unshare --kill-child under a parent-death signal); the next Boot on
//     a host without systemd removes the cgroups it left.
//   - Without root, /lib/systemd/systemd, unshare or nsenter, Main runs no
//     harness and the suites skip with a message saying what is missing.
package systemdtest
