// Package textfile edits text files that others write too: the lines of
// a file_line, a user's authorized_keys, /etc/fstab. It reads a regular
// file through package safepath and replaces it atomically, keeping its
// owner, group and mode.
//
// Guarantees:
//   - The file's parent is opened by safepath's walk and the file read
//     and replaced relative to that directory: a symlink at the path is
//     refused, never followed; so is one on the way that a user other
//     than root controls.
//   - A replacement is a temporary file beside the file, given the old
//     file's owner, group and mode before it is synced and renamed over
//     it: readers see the old content or the new, never a mix, and
//     nothing the edit did not mean to change.
//   - Lock serialises this process's edits of one path, so two resources
//     editing lines of the same file never lose each other's change.
//   - ReadSettled waits until no program has the file open for writing
//     (the kernel grants a read lease only then), so an edit never starts
//     from a file a shell has truncated and not yet written.
//   - Files are read up to MaxSize; a larger one is an error, not a
//     truncated edit.
package textfile
