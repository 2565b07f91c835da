// Package statuscache answers "which version of this package is installed"
// for many packages with one package-manager query, and answers again from
// memory until the package database changes.
//
//   - Batched: a query asks about every package a resource asked about
//     recently, so checking N packages after a database change costs one
//     query, not N.
//   - Never stale: an answer is reused only while the fingerprint of the
//     database files (identity, size, times) is unchanged since the query
//     began, and never while those files are so recently written that
//     their times cannot tell two writes apart. A caller is only ever
//     answered by a query that began after the caller asked.
//   - Shared: concurrent callers wait for the query in flight instead of
//     starting their own.
//   - Bounded: a package nobody asked about during the last two queries is
//     forgotten, so names of resources dropped by a reload do not pile up.
package statuscache
