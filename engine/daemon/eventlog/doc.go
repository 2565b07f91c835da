// Package eventlog prints what the engine does, for people and for
// programs: one line per event that changed, failed, was skipped or
// changed standing (every check with Verbose), or JSON lines in upstream
// CCM's TransactionEvent shape; the one-shot run's summary (upstream's
// session summary in JSON) and the watch session's; upstream's result
// line of `ccm ensure`; the live status line of a one-shot run; and log
// lines in the same style (LogHandler).
//
// Guarantees:
//   - One line per event: a newline or tab inside a name or an error is
//     escaped (termsafe.OneLine), so a reader, or the journal reading a
//     priority prefix, never takes data for a line of ccm's.
//   - A reader that goes away (a closed pipe) costs one warning; the
//     engine goes on and later events are dropped.
//   - A one-shot run's lines are written in batches (at most batchDelay
//     late, Flush at the end); watch mode writes each line at once.
//   - Under journald each line carries its priority and no time.
package eventlog
