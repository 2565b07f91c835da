// Package kernel is a thin layer over one Linux inotify instance.
//
// It watches directories by path with exactly the events each caller asks
// for, and reads events named by the watched directory and the child:
//
//   - Each path has its own mask; Watch again replaces it, so a watch is
//     narrowed as well as widened (the kernel keeps one mask per watch).
//   - Several paths naming one directory (through symlinks) share the
//     kernel's one watch on it, with the union of their masks, and every
//     event on it is reported under each of those paths.
//   - Events are handed to a Handler one read at a time, and each read's
//     names are cleared when its handler returns: a name cannot be used
//     after the next read reused its bytes.
//   - Reads park in Go's poller; Close unblocks them. Drain reads what is
//     queued without waiting, after the handler of a running Read
//     returned, so its caller knows every event queued before it was
//     handled.
//   - The kernel returns whole events only; a record cut short anyway is
//     reported as a queue overflow, like events lost.
//   - A watch the kernel dropped (IN_IGNORED: the directory was deleted or
//     its filesystem unmounted) is forgotten. A watch removed by Unwatch
//     still names the events queued before its removal.
//   - A queue overflow is reported as an event with IN_Q_OVERFLOW set.
package kernel
