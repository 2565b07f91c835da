// Package commit makes the atomic writes of several resources durable
// together: a group commit. Each resource still writes its own temporary
// file and renames it over its target itself; between the two it waits
// in Sync until every other member of its Group has either reached Sync
// too or finished. Then the round makes their files durable in one of two
// ways, by what the machine's dirty page cache holds (/proc/meminfo):
//   - little besides the round's own files, or no more other programs'
//     data than syncing the files the run still has to sync one by one
//     would cost: one syncfs(2) per filesystem, the cheapest way to sync
//     many files, costing each a look at its own write-back errors after
//     (a large run thus writes a neighbour's backlog back once, and its
//     later rounds no longer meet it);
//   - more of other programs' data: each member fsyncs its own file, all
//     at once (a journalling filesystem commits concurrent fsyncs
//     together), so that a small run never waits for that data, as a
//     syncfs would.
//
// Guarantees:
//   - Sync returns only once the file given is durable, or with an error:
//     a target is never replaced by a file a crash could leave partial.
//   - A failure belongs to the file it is about: a failed syncfs falls
//     back to each file's own fsync, which tells its errors from other
//     files'.
//   - A member that fails before Sync, never writes, or gives up waiting
//     when its context ends, holds no one back: the group syncs as soon as
//     every member left is waiting.
//   - Without a group in the context, or alone in its round, a file is
//     synced with its own fsync, as it would be without this package.
package commit
