// Package session keeps the events of `ccm ensure` calls in a directory,
// as upstream CCM's directory session store does: one `<ksuid>.event`
// JSON file per event (upstream's TransactionEvent fields), so a later
// call can require and subscribe to an earlier one, and
// `ccm session report` can sum them up.
//
// Guarantees:
//   - Each event is written to a temporary file in the directory and
//     renamed into place: a reader never sees half an event.
//   - Events are read in the order they were recorded (by their
//     timestamps: ksuids sort by the second only); the last event of a
//     resource decides what a reference to it means, as upstream's does.
//   - A store is removed only when it holds nothing but event files, so
//     a mistyped directory is never emptied.
package session
