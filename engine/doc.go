// Package engine runs a resource graph: it checks every vertex and applies
// what drifted, parents before children and in written order, unordered
// vertices in parallel on a bounded worker pool, and in watch mode keeps
// going for as long as the process lives.
//
// Guarantees:
//   - Level-triggered: events only mark a vertex dirty; ten events while it
//     waits are one check, and an event while it runs makes exactly one
//     more run.
//   - A dirty vertex runs only when every parent is clean and converged; a
//     vertex whose parent failed is reported blocked, never silently run.
//   - A dirty vertex also waits for the vertices written before it (the
//     graph's Order edges) that are running or about to run, whatever
//     their outcome; one that failed, is blocked or waits on a back-off
//     does not hold it back, so a lone repair runs at once.
//   - A change applied by a vertex refreshes its subscribers; the pending
//     refresh is cleared only by the subscriber's successful apply.
//   - In watch mode failures are never permanent: they retry with
//     exponential backoff and jitter, and a vertex whose repairs another
//     writer keeps undoing as soon as they are made is reported contested
//     once and backed off (ContestPolicy); drift that comes seconds apart,
//     or in one burst across many vertices, is repaired each time.
//   - The engine never imports a concrete resource type: it sees the
//     resources.Resource contract and the graph only.
package engine
