// Package sysctl is the sysctl resource: a kernel parameter held at a
// value through /proc/sys, and optionally persisted for the next boot as
// a drop-in under /etc/sysctl.d.
//
// Guarantees:
//   - The parameter is read and written as its file under /proc/sys,
//     reached through package safepath; no sysctl program runs.
//   - Values compare as the kernel prints them: words separated by any
//     whitespace ("32768 60999" is the kernel's "32768\t60999").
//   - persist writes /etc/sysctl.d/zz-ccm-KEY.conf, whose name sorts
//     after the numbered drop-ins (and /etc/sysctl.conf's 99-sysctl.conf),
//     so the managed value is the one applied at boot; it is written
//     atomically and watched by inotify.
//   - procfs sends no inotify events, so the value is polled: every
//     DefaultPoll unless poll_interval (or ccm's --poll) says otherwise.
//     A read of a parameter costs one open, read and close.
package sysctl
