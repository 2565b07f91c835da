// Package mount is the mount resource: a filesystem kept mounted (or
// unmounted) at a mount point, and optionally its line in /etc/fstab.
//
// Guarantees:
//   - Check reads this process's mount table (/proc/self/mountinfo) and,
//     with persist, /etc/fstab; it changes nothing. The mount at the point
//     is the topmost one there; it is the wanted one when its filesystem
//     type matches and its source does: a block device (by path, UUID= or
//     LABEL=) by device number, anything else (tmpfs, nfs) by name. Of the
//     options, ro and rw are compared; the others apply when mounting and
//     in fstab.
//   - mount and umount run through the one command runner, without a
//     shell; a missing mount point is created (mode 0755) through package
//     safepath.
//   - The fstab line is managed as a line: the first line for the mount
//     point is brought to the wanted one in place, later ones removed,
//     other lines kept byte for byte (package textfile).
//   - Watch: the mount point through the shared mount table hub
//     (watchers/mountinfo), which the kernel wakes with POLLPRI on every
//     mount and unmount; /etc/fstab through the shared inotify hub.
package mount
