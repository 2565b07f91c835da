// Package driftoracle is the drift oracle: a test that holds ccm to its
// one promise, that every drift is repaired at once.
//
// It builds the real binary from ./cmd/ccm and starts it in watch mode,
// with the periodic re-check off, over a tree it generates from a seed:
// nested directories and 100 to 2,000 files, with names of every length
// up to 240 bytes and mixed modes, owners and groups. Then it tampers
// with the tree in random bursts from several goroutines at once, as
// operators and programs do: unlink, rename away (and back), rm -rf of a
// directory, rename of a parent directory, chmod, chown, truncate,
// append, in-place rewrite, atomic replace, a symlink or a directory
// where a file was, a file or a symlink where a directory was, and noise
// files made beside managed ones. After each burst it asserts the
// invariant: every managed path is back in its desired state within a
// bound (2 s on tmpfs, 5 s on a disk), and stays there once the daemon is
// idle. With the re-check off, only the events the burst caused can have
// repaired it.
//
// It runs on tmpfs (/dev/shm) and on the filesystem of the test's
// temporary directory, in inotify and in --poll mode, with --workers 1
// and the default: eight runs sharing the time given by -duration
// (2 minutes under make test). A failure prints the seed, how to replay
// the run, the operations of the burst, the events about the paths left
// wrong and the daemon's last log lines. make torture runs it longer:
//
//	make torture DURATION=10m SEED=1234
//
// Between bursts it samples the daemon's descriptors, threads,
// goroutines and heap, and fails when one keeps growing over the run.
//
// Each resource type the oracle drives is a kind in the kinds table,
// with its manifest entry, its desired-state check and its tampers: a
// new type joins by adding a kind. Besides files and directories:
// file_line (lines_test.go); and, since the tests run in a sandbox
// (private mount and network namespaces with tmpfs copies of /etc, /home
// and /media), sysctl and mount (kernel_test.go), group, user and
// authorized_key, tampered with the host's own tools (accounts_test.go).
// Without root or unshare there is no sandbox and those kinds are left
// out.
package driftoracle
