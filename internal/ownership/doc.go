// Package ownership is the rule by which ccm decides whether to trust a
// file or directory that decides what it does as root: a manifest, a
// child manifest, the agent's configuration, hiera and facts files,
// `.env`, a session store and its events, the state directory and the
// control socket's directory. Whoever can change such a thing can make
// ccm run commands as root, so it must belong to those who already can.
//
// The rule, as OpenSSH's StrictModes and sudo apply it:
//   - Trusted users are root and the user ccm runs as.
//   - What is read (the target) is owned by a trusted user and writable
//     by no one else: no group or other write bit.
//   - Every directory above it is owned by a trusted user and writable by
//     no one else, unless it is sticky (as /tmp is): there others may add
//     names but cannot rename or remove what a trusted user owns, so
//     root's files in /tmp are trusted, a user's are not.
//   - Every symlink followed on the way is owned by a trusted user.
//
// Guarantees:
//   - Checked by descriptor: a walk from / opens each component with
//     O_NOFOLLOW relative to the directory before it, checks what it
//     opened, and goes on from that descriptor; the target is checked on
//     the descriptor that is then read. Nothing is checked by path and
//     then opened by path again.
//   - A refusal is an *UnsafeError (matching ErrUnsafe) naming the path
//     asked for, the file, directory or link at fault, its owner and mode,
//     and what to do.
//   - Allow, the command line's --allow-unsafe-ownership, turns every
//     refusal of the process into a warning; the rule is process-wide so
//     that no reader can forget the operator's decision.
//   - Reads are bounded and of regular files only: a FIFO, a device or a
//     directory is ErrNotRegular without being opened for reading, a file
//     above its limit is ErrTooLarge.
package ownership
