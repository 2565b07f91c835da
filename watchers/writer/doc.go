// Package writer names the programs that change watched paths, so that a
// resource ccm keeps repairing can say who it is fighting with.
//
// One fanotify group serves the whole process. It is opened when the
// first path is watched and closed with the last, so while no resource
// is fighting nothing is marked, no descriptor is open and no goroutine
// runs. Each watched path's directory gets one mark, shared and
// reference-counted, for the changes of its entries: writes, closes
// after writing, attribute changes (chmod, chown), creation, deletion and
// renames. The group reports the directory and the entry's name (FID
// mode, Linux 5.9 or later), so a writer that replaces a file by renaming
// a temporary one over it (sed -i, editors, another configuration
// manager) is seen as well as one writing in place.
//
// An event carries the pid of the process that caused it; the process is
// described from /proc (its command line and uid) as soon as the event
// is read, at most once per 50ms: one write is several events. A process seen earlier in the same directory (sed writing its
// temporary file) is remembered, so it is named even once it exited; one
// that exited before any of its events was read is named by pid alone.
// ccm's own changes are not counted.
//
// Without fanotify (not root, an old kernel, a file system without file
// handles), or when no change was seen, a witness looks for a process
// holding a watched path open for writing; failing that it names nobody.
package writer
