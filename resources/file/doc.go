// Package file is the file resource: regular files and directories with
// their content, owner, group and mode, managed by the posix provider.
//
// Guarantees:
//   - Check never writes (but removes the temporary files a killed run
//     left), and costs an open of the path and a stat plus, when the size
//     matches, a read and hash of the file; the wanted content's hash is
//     computed once. The check right after a write reads nothing: the
//     file written is known by its stamp (device, inode, size,
//     modification and change times, taken after the rename), where the
//     filesystem gives every change after a stat new times (Linux 6.13's
//     multigrain timestamps on ext4, xfs, btrfs and tmpfs); any other
//     file, or the same one changed, is read as ever.
//   - Every operation goes through package safepath: the parent directory
//     is opened without following a symlink someone other than root
//     controls (unless follow_symlinks lists it), and the check and the
//     apply that follows act relative to that one open directory.
//   - Content is written atomically: a temporary file in the same directory,
//     created by root giving group and others no more than read and
//     execute where the final mode gives them to others, gets its content,
//     then the owner and mode it lacks (none, for a root file of mode 0644
//     or 0755), is synced, then renamed over the path. A reader never sees
//     a partial or wrongly permitted file.
//   - Drift of owner, group or mode alone is fixed in place: the inode, the
//     content and the modification time stay.
//   - A file's parent directory is never created; a directory's are.
//   - A symlink at the path is drift, never followed: it is replaced, or
//     removed for ensure: absent, and its target is left alone.
package file
