// Package commit makes the atomic writes of several resources durable
// together: a group commit. Each resource still writes its own temporary
// file and renames it over its target itself; between the two it starts
// its file's write-back (without waiting), then waits in Sync until every
// other member of its Group has either reached Sync too or finished, and
// then all of them fsync their own files at once. The device gets their
// writes in one batch, a journalling filesystem commits their concurrent
// fsyncs together, and no one waits for data other programs wrote to the
// same filesystem, as a syncfs(2) would.
//
// Guarantees:
//   - Sync returns only once the file given is durable, or with an error:
//     a target is never replaced by a file a crash could leave partial.
//   - A failure belongs to the file it is about: each file's own fsync
//     reports its own write-back errors.
//   - A member that fails before Sync, never writes, or gives up waiting
//     when its context ends, holds no one back: the group syncs as soon as
//     every member left is waiting.
//   - Without a group in the context, or alone in its round, a file is
//     synced with its own fsync, as it would be without this package.
package commit
