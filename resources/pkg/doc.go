// Package pkg is the package resource: system packages kept present,
// absent, at the latest version or at a given version, through apt or dnf.
//
// Guarantees:
//   - Nothing a manifest says reaches a shell: names and versions are
//     checked against a strict character set and passed as single
//     arguments.
//   - One package-manager change at a time in the whole process; status
//     checks run concurrently with each other, never with a change.
//   - Checking many packages costs one query of the package database, and
//     a check never answers from memory once the database has changed.
//   - Apply decides again under the lock from a fresh status, so it never
//     acts on a state another program has changed since the check.
//   - Changes of one kind to consecutive packages (resources.Groupable) go
//     to the package manager in one run; when that run fails, each package
//     is changed on its own, so a failure is the failing package's alone.
//     A package alone runs the same command as ever.
package pkg
