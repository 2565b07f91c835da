// Package accounts is what the user and group resources share: reading
// the local account databases (/etc/passwd, /etc/shadow, /etc/group,
// /etc/gshadow) and running the distribution's tools that change them
// (useradd, usermod, userdel, groupadd, groupmod, groupdel, gpasswd,
// chpasswd).
//
// Guarantees:
//   - The databases are read as files, through package safepath
//     (textfile), never through NSS: the resources manage local accounts,
//     and a user LDAP also knows is not a local one.
//   - Tools run through one command.Runner, without a shell, with a
//     timeout, one at a time in this process (Lock), so two resources
//     never race for the tools' lock files; their errors carry what the
//     tool printed, never the input it read (a password hash).
package accounts
