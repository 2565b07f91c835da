// Package exec is the exec resource: commands run directly (posix
// provider) or through /bin/sh (shell provider), made idempotent by
// creates, onlyif, unless and refreshonly.
//
// Guarantees:
//   - Nothing reaches a shell unless the resource says provider: shell; the
//     posix provider splits the command (and its guards) into words and
//     runs the program itself, so $VAR, ;, | and * are plain text.
//   - A command runs with a replaced environment (PATH, LANG=C, LC_ALL=C
//     and the resource's environment), in / unless cwd says otherwise.
//   - A timeout stops the command's whole process group, children included:
//     SIGTERM, then SIGKILL after timeout_grace (default 5s).
//   - Guards only look: they run in noop too. The command itself never runs
//     in noop.
//   - A run whose exit code is not in returns is reported by the Check that
//     follows it, as the engine's ErrDesiredStateFailed.
package exec
