// Package mountinfo is the shared event source for the mount table: one
// descriptor of /proc/self/mountinfo for the whole process, waited on for
// POLLPRI, which the kernel raises whenever a mount or unmount changes
// this mount namespace's table (procfs sends no inotify events).
//
// Guarantees:
//   - One descriptor and one goroutine, started by the first Watch and
//     blocked in poll(2) while nothing changes: idle costs nothing.
//   - A watch is armed when Watch returns: the table is read after the
//     descriptor is opened, and the kernel raises POLLPRI for any change
//     after the open, so no change after Watch returns goes unseen.
//   - On each change the table is read again and compared mount point by
//     mount point; only the watchers of a mount point whose entries
//     appeared, vanished or changed (a remount) are notified.
//   - If the table cannot be read the hub notifies every watcher and
//     retries on the next change, so a lost read costs a check, never a
//     drift.
package mountinfo
