// Package session keeps the events of `ccm ensure` calls in a directory,
// as upstream CCM's directory session store does: one `<ksuid>.event`
// JSON file per event (upstream's TransactionEvent fields), so a later
// call can require and subscribe to an earlier one, and
// `ccm session report` can sum them up.
//
// Guarantees:
//   - Trusted only as root's: a store (and every directory above it) must
//     pass the ownership rule of internal/ownership, checked by
//     descriptor each time it is used: a store another user owns or may
//     write is refused, since a forged event there satisfies a require or
//     triggers a refresh.
//   - Each event is written, mode 0600, to a temporary file in the
//     directory and renamed into place: a reader never sees half an event.
//   - Events are read as regular files only, at most MaxEvent bytes, and
//     only when root or ccm's user wrote them: a FIFO, a symlink (to
//     /dev/zero or anywhere) or another user's file is an error naming it.
//   - Events are read in the order they were recorded (by their
//     timestamps: ksuids sort by the second only); the last event of a
//     resource decides what a reference to it means, as upstream's does.
//   - A store is removed only when it holds nothing but event files, so
//     a mistyped directory is never emptied.
package session
