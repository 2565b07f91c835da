// Package statuscache answers "which version of this package is installed"
// for many packages with one package-manager query, and answers again from
// memory until the package database changes.
//
//   - Batched: a query asks about every package a resource asked about
//     recently, so checking N packages after a database change costs one
//     query, not N.
//   - Never stale: a caller is answered by a query that began after it
//     asked, or from memory when the database's fingerprint (identity,
//     size and times of its files) is the one taken before that query,
//     and was still the same after it. Files written so recently that
//     their times cannot tell two writes apart are either hashed into the
//     fingerprint (HashRecent, for small databases) or not trusted.
//   - Shared: concurrent callers wait for the query in flight instead of
//     starting their own.
//   - Bounded: a package nobody asked about for ten minutes (ForgetAfter)
//     is left out of queries and forgotten, so names of resources dropped
//     by a reload do not pile up.
package statuscache
