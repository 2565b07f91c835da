// Package ids resolves the user and group names of owner and group
// properties to numeric ids, and ids back to names for messages.
//
// Guarantees:
//   - A number is the id itself, so ownership by an id this host has no
//     name for works.
//   - root is id 0, as user and as group, without a lookup (as systemd
//     has it).
//   - Another name is looked up once and remembered until its database
//     (/etc/passwd, /etc/group) changes: checking an unchanged resource
//     costs one stat of that file instead of a lookup.
//   - A name that does not exist is never remembered: a package may create
//     it later in the run. Its error matches ErrNoSuchUser or
//     ErrNoSuchGroup.
//   - Safe for concurrent use.
package ids
