// Package authorizedkey is the authorized_key resource: one public key
// kept in (or out of) a user's ~/.ssh/authorized_keys, with its options
// and comment, the file's other lines left alone.
//
// A key is known by its key material: a line holding the same base64 blob
// is that key's line whatever its options and comment, which are brought
// to the wanted ones in place; later lines holding the same key are
// removed. ensure: absent removes every line holding the key.
//
// Guarantees:
//   - The user's home comes from the user database at each check. The way
//     there is walked by package safepath: a symlink the user planted
//     (~/.ssh -> /root/.ssh) is refused, never followed, and nothing is
//     changed.
//   - A missing ~/.ssh is created mode 0700 and owned by the user; an
//     existing one is given to the user and loses group and other write
//     (what sshd's StrictModes refuses), nothing else. A new
//     authorized_keys is the user's, mode 0600; an existing one keeps its
//     owner, group and mode.
//   - Edits go through package textfile: an atomic replacement, other
//     lines kept byte for byte, one edit at a time per file in this
//     process, and none while another program has the file open for
//     writing.
package authorizedkey
