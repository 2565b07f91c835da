// Package inotify is the process's one inotify instance, shared by every
// watched path.
//
// It watches directories, never files: the parent of each registered path
// (or its nearest existing ancestor while the path does not exist yet:
// the path's head), plus every ancestor above that, so creation,
// deletion, atomic replacement and the removal or rename of any ancestor
// directory are all seen. Watches are reference-counted across
// registrations and re-armed as directories appear and disappear. A queue
// overflow notifies every registration. When the kernel refuses a watch
// (ENOSPC, EMFILE, ENOSYS) the path falls back to a polling source, with
// one warning.
//
// Each directory is watched only for what its users need, so changes
// among the other entries of an ancestor (a busy /tmp or /etc) never wake
// the process:
//
//   - a head, and every directory of a recursive registration, for every
//     change to its entries;
//   - a registered path that is a directory for its own attributes and
//     fate, and its parent only for entries deleted or renamed (away or
//     over another), so files made and written beside a managed directory
//     wake nobody (once it is gone, its parent is watched for entries
//     created, and a directory or a file appearing in its place re-plans
//     its watches);
//   - an ancestor only for its own rename, deletion or unmount;
//   - the parent of a symlink on the way for its entries appearing and
//     going too, since replacing the symlink re-points what lies below.
//
// A directory with several users has the union of the masks they need,
// and is narrowed again when a user goes. The instance itself is
// package internal/kernel.
package inotify
