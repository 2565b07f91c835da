// Package user is the user resource: a local account, its ids, groups,
// home, shell, comment, password hash and expiry, managed with the
// distribution's tools (useradd, usermod, userdel, chpasswd -e).
//
// Guarantees:
//   - Check reads /etc/passwd, /etc/shadow and /etc/group as files
//     (package accounts), never NSS, and changes nothing. Only the
//     properties a manifest sets are compared.
//   - The password hash never leaves the resource: it reaches chpasswd on
//     its standard input (never in arguments other processes can read),
//     differences and noop messages show it as [redacted], and the type
//     removes it from the properties reports show, sensitive or not.
//   - groups is a minimum (membership: minimum, the default) or the exact
//     list of supplementary groups (membership: exact).
//   - uid, gid changes go through usermod; with managehome the home is
//     created, moved (usermod --move-home) and removed with the account.
//   - Watch: /etc/passwd, /etc/shadow, /etc/group and /etc/gshadow through
//     the shared inotify hub.
package user
