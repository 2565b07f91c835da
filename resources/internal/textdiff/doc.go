// Package textdiff compares two versions of a managed text for the
// differences checks report: how many lines were added and removed, and a
// unified diff.
//
// Guarantees:
//   - Bounded: inputs beyond MaxInput are not compared line by line, the
//     edit search gives up beyond a fixed number of edits (the changed
//     middle is then shown as replaced whole, still a correct diff), and
//     the unified diff stops after MaxLines lines.
//   - Binary content (a NUL byte, or not UTF-8) is never shown: only its
//     digest.
package textdiff
