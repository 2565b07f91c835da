// Package group is the group resource: a local group, its gid and its
// members, managed with the distribution's tools (groupadd, groupmod,
// groupdel, gpasswd).
//
// Guarantees:
//   - Check reads /etc/group as a file (package accounts), never NSS;
//     it changes nothing.
//   - Apply runs the tools without a shell, one at a time in the process,
//     each with a timeout; a tool's failure is an error with its output.
//   - members is the exact list (membership: exact, the default) or a
//     minimum (membership: minimum) that leaves members added by others.
//   - system and a gid apply at creation; a gid that drifts is changed
//     back with groupmod (files owned by the old gid keep it).
//   - Watch: /etc/group and /etc/gshadow through the shared inotify hub.
package group
