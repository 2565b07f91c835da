// Package watchers holds the shared event sources of a watching engine,
// one sub-package each: inotify (one inotify instance for the whole
// process), poll (one timer loop for everything polled), systemd (one
// D-Bus connection) and mountinfo (one descriptor of the mount table). Sources only say "look again"; they never carry
// state, so a lost or duplicated notification costs at most one check.
//
// Sub-package writer is of another kind: it names who changes the paths
// of a resource that is fighting another program, for reports, and never
// makes anything run.
package watchers
