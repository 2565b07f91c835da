// Package health reads a resource's health_checks (the common property
// upstream CCM's monitoring docs teach) and runs them: Nagios plugins,
// whose exit code is the verdict (0 OK, 1 WARNING, 2 CRITICAL, anything
// else UNKNOWN), and Goss rules, run through the goss library as upstream
// does (any failed rule is CRITICAL).
//
// Guarantees:
//   - A plugin runs without a shell: its command is split into words as
//     exec's posix provider splits it, and runs through the one command
//     runner, so a try's timeout kills its whole process group.
//   - Checks never change the host themselves; what they run is the
//     manifest's business.
//   - Tries wait on an injected clock, so their timing is tested without
//     sleeping.
//   - Goss reads one rule set at a time in the whole process (the library
//     keeps what it reads in package variables); reading is quick, and the
//     rules then run at once.
//   - A check's timeout bounds each try of either format: a plugin is
//     killed with its process group; a Goss rule set, which the library
//     cannot cancel, is abandoned and reported UNKNOWN.
package health
