// Package inotify is the process's one inotify instance, shared by every
// watched path.
//
// It watches directories, never files: the parent of each registered path
// (or its nearest existing ancestor while the path does not exist yet),
// plus every ancestor above that, so creation, deletion, atomic
// replacement and the removal or rename of any ancestor directory are all
// seen. Watches are reference-counted across registrations and re-armed as
// directories appear and disappear. A queue overflow notifies every
// registration. When the kernel refuses a watch (ENOSPC, EMFILE, ENOSYS)
// the path falls back to a polling source, with one warning.
package inotify
