// Package sandbox runs a package's tests inside private namespaces, for
// resource types that change state the whole host shares: users and
// groups in /etc, keys under /home, kernel parameters, mounts.
//
// TestMain calls Main, which runs the test binary again under `unshare`
// in a new mount namespace with private propagation (and, with Net, a new
// network namespace), where each directory of Copies (/etc, /home) is a
// tmpfs holding a copy of the host's. Tests call Require first.
//
// Guarantees:
//   - The tests run only in the re-run binary, after it has checked that
//     its mount namespace (and with Net its network namespace) is not the
//     one it was started from; a failed check ends it before any test.
//   - What the tests write under Copies lands on the tmpfs, and mounts
//     they make vanish with the namespace; the host's files are only
//     read, to copy them.
//   - Per-network-namespace kernel parameters (net.ipv4.ip_forward,
//     net.ipv4.conf.lo.*) written in a Net sandbox are the sandbox's.
//   - Without root or unshare the tests run unsandboxed and every test
//     that calls Require skips, saying what is missing.
//   - The re-run binary dies with the test binary (a parent-death signal),
//     and the namespace with it.
package sandbox
