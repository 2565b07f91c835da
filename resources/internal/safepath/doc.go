// Package safepath is how resources touch the filesystem as root on paths
// that other users may control: every path is resolved component by
// component without following a symlink that a user other than root could
// have planted, and every change is made relative to an open directory.
//
// Guarantees:
//   - Nothing checks a path and then acts on the path string again. A walk
//     opens each directory and goes on from its descriptor (openat2 with
//     RESOLVE_NO_SYMLINKS where the kernel has it, else an O_NOFOLLOW walk),
//     and files are created, chowned, chmodded, renamed and removed relative
//     to the descriptor of their directory (Dir). Swapping a directory for
//     a symlink after it was opened changes nothing: the walk already holds
//     the real directory.
//   - A symlink on the way to a path is followed only when no one but root
//     can have made it or can change it (it is owned by root, in a directory
//     owned by root that only root can write, or that has the sticky bit),
//     or when the Policy allows that link by name. Any other is refused with
//     a SymlinkError that names the link and its target. Below a Dir
//     (Dir.OpenDir, Dir.MkdirAll) no symlink is followed at all.
//   - The last component is never followed by a Dir method: a symlink there
//     is seen, replaced or removed as a link.
//   - RemoveAll and Walk never cross a symlink or a mount point, and hold
//     at most MaxDepth directories open.
//   - The atomic writer (Dir.CreateTemp, Dir.WriteTemp) names its
//     temporary files `.NAME.ccm-DIGITS` and holds a lock on them while they
//     are written; Dir.RemoveLeftovers removes those a killed process left,
//     never one that is being written. Temp.CommitStamped returns the
//     Stamp of the file renamed, by which a later look tells the file
//     written, unchanged, without reading it, where the filesystem gives
//     every change after a stat new times.
//   - A Stage is a directory only root can enter for a tool that writes by
//     path (tar, unzip); MoveIn moves what it holds into its Dir by rename
//     between descriptors, replacing a file or link in the way, merging
//     into a directory, never following a link or entering a mount point.
//   - ReadFile reads regular files only, up to a size given by the caller.
//
// The cost over plain path calls is one openat2 and one close per
// operation on a path; the walk and the trust checks run only when a
// symlink is on the way.
package safepath
