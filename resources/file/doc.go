// Package file is the file resource: regular files and directories with
// their content, owner, group and mode, managed by the posix provider.
//
// Guarantees:
//   - Check never writes (but removes the temporary files a killed run
//     left), and costs an open of the parent directory and a stat plus,
//     when the size matches, a hash of the file; the wanted content's hash
//     is computed once.
//   - Every operation goes through package safepath: the parent directory
//     is opened without following a symlink someone other than root
//     controls (unless follow_symlinks lists it), and the check and the
//     apply that follows act relative to that one open directory.
//   - Content is written atomically: a temporary file in the same directory
//     gets its owner and mode before any content, is synced, then renamed
//     over the path. A reader never sees a partial or wrongly permitted file.
//   - Drift of owner, group or mode alone is fixed in place: the inode, the
//     content and the modification time stay.
//   - A file's parent directory is never created; a directory's are.
//   - A symlink at the path is drift, never followed: it is replaced, or
//     removed for ensure: absent, and its target is left alone.
package file
