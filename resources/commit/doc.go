// Package commit makes the atomic writes of several resources durable
// together: a group commit. Each resource still writes its own temporary
// file and renames it over its target itself; between the two, instead of
// an fsync of its own, it waits in Sync until every other member of its
// Group has either reached Sync too or finished, and one syncfs(2) per
// filesystem makes all their temporary files durable at once.
//
// Guarantees:
//   - Sync returns only once the file given is durable, or with an error:
//     a target is never replaced by a file a crash could leave partial.
//   - A failure belongs to the file it is about. A filesystem whose syncfs
//     fails has each of its files synced on its own (fsync), so each gets
//     the error it would have had alone; after a syncfs that succeeded,
//     each file is asked for its own write-back errors, which syncfs may
//     not report (an error another descriptor of the filesystem saw).
//   - A member that fails before Sync, never writes, or gives up waiting
//     when its context ends, holds no one back: the group syncs as soon as
//     every member left is waiting.
//   - Without a group in the context, or alone in its round, a file is
//     synced with its own fsync, as it would be without this package.
package commit
