// Package fleet reports a host's events and standing to NATS JetStream,
// and reads the standing of every host back, so a fleet can be watched
// from one place.
//
//   - Events (upstream's TransactionEvent fields plus the trigger and the
//     host name) are published to the subject ccm.events.HOST of the stream
//     CCM_EVENTS, created when missing.
//   - The host's status (counts by standing, the failed and contested
//     resources, the source revisions in force, the last convergence, the
//     last reload error) is put in the key-value bucket CCM_STATUS under
//     the host's name after every settle and at least every heartbeat, so
//     a host that stopped reporting shows as stale.
//   - Publishing never blocks the engine: events wait in a bounded queue
//     while NATS is away (the oldest are dropped, and counted, when it
//     fills) and go out when it is back.
package fleet
