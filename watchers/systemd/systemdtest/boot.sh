#!/bin/sh
# boot.sh HOST_MNT_NS MASK... — PID 1 of fresh pid, mount and uts namespaces (started by
# `unshare --fork --pid --mount --uts --mount-proc --propagation private`):
# hide every path systemd would write on the host, mask every unit that
# would change state shared with the host, then become systemd.
#
# Never run systemd without these steps: an unmasked boot in a namespace
# ran systemd-tmpfiles --remove and emptied the host's /tmp, applied
# sysctl.d to the shared kernel and started the host's timers
# (shared/notes/libraries.md §9).
set -eu

# Tell the harness on fd 3 that the namespace's PID 1 exists, so it can
# find its host PID; systemd must not inherit the pipe.
echo started >&3
exec 3>&-

if [ "$$" -ne 1 ]; then
	echo "boot.sh: must run as PID 1 of a new pid namespace" >&2
	exit 1
fi
# HOST_MNT_NS is the caller's mount namespace (readlink /proc/self/ns/mnt):
# mounting over /run there would hide the host's /run.
if [ "$(readlink /proc/self/ns/mnt)" = "$1" ]; then
	echo "boot.sh: not in a private mount namespace" >&2
	exit 1
fi
shift

hostname ccm-systemdtest
mount -t tmpfs -o mode=0755 ccm-run /run
mount -t tmpfs -o mode=0755 ccm-units /etc/systemd/system
mountpoint -q /run
mountpoint -q /etc/systemd/system

# systemd adds controller directories to the tmpfs holding cgroup v1
# hierarchies and remounts it read-only. A remount changes the superblock,
# which the host shares, so give systemd a private tmpfs holding bind mounts
# of the same hierarchies.
if [ "$(stat -f -c %T /sys/fs/cgroup)" = tmpfs ]; then
mkdir /run/ccm-cgroup
mount --rbind /sys/fs/cgroup /run/ccm-cgroup
mount -t tmpfs -o mode=0755 ccm-cgroup /sys/fs/cgroup
for entry in /run/ccm-cgroup/*; do
	name=${entry##*/}
	if [ -L "$entry" ]; then
		ln -s "$(readlink "$entry")" "/sys/fs/cgroup/$name"
	elif mountpoint -q "$entry"; then
		mkdir "/sys/fs/cgroup/$name"
		mount --bind "$entry" "/sys/fs/cgroup/$name"
	fi
done
umount -l /run/ccm-cgroup
rmdir /run/ccm-cgroup
mountpoint -q /sys/fs/cgroup
fi

mkdir -p /run/systemd/system /run/lock
for unit in "$@"; do
	ln -s /dev/null "/run/systemd/system/$unit"
done
for unit in "$@"; do
	[ "$(readlink "/run/systemd/system/$unit")" = /dev/null ]
done

exec /lib/systemd/systemd --system --unit=basic.target --log-target=console --log-color=no --show-status=no
