// Package state is ccm's state directory (default /var/lib/ccm): what must
// survive a restart, a crash or a reboot. The engine keeps pending
// refreshes here; other parts of ccm (rollback content, fetched bundles)
// keep theirs through the same API, each in its own subdirectory (Sub).
//
// Guarantees:
//   - Atomic: WriteFile and WriteJSON write a temporary file, fsync it,
//     rename it over the name and fsync the directory, so after a crash a
//     name holds the old content or the new, never a mix or nothing.
//     Temporary files a crash left behind are removed when the directory
//     is opened.
//   - Root-only: directories are 0700 and files 0600, owned by the
//     process's user; a directory owned by another user, or one others
//     may write to, or under such a directory (the ownership rule of
//     internal/ownership, checked by descriptor on the way from /), or a
//     symlink someone else owns in its place, is refused, since whoever
//     can write here can make ccm replay refreshes or restore content.
//   - Made when first needed: a missing directory (or subdirectory) reads
//     as empty, and the first write makes it under the checks an existing
//     one passes at open, so a run that records nothing leaves nothing.
//     An existing one, and the way to a missing one, are checked at open.
//   - Contained: names are single path components; every operation is
//     relative to the open directory (os.Root), so nothing escapes it.
//   - Read-only when asked (OpenReadOnly): a noop run reads what is kept
//     and changes nothing, not even a mode or a leftover.
//   - Safe for concurrent use; two writers of one name leave one of the two
//     contents whole.
package state
