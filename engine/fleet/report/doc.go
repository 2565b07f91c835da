// Package report reports a host's events and standing to NATS JetStream,
// and reads the standing of every host back, so a fleet can be watched
// from one place.
//
//   - Events (upstream's TransactionEvent fields plus the trigger and the
//     host name) are published to the subject ccm.events.HOST of the stream
//     CCM_EVENTS, created when missing.
//   - The host's status (counts by standing, the failed and contested
//     resources, the source revisions fetched and applied, the last
//     refusal of each source, the last convergence, the last reload error)
//     is put in the key-value bucket CCM_STATUS under the host's name,
//     used as given (CheckHost), after every settle and at least every
//     heartbeat, so a host that stopped reporting shows as stale. Each put
//     expects the revision of the process's last one, so a second process
//     reporting under the same name is found out and reported by both.
//   - Init creates the stream and the bucket with their limits (the
//     bucket's TTL drops hosts silent for too long), so hosts need no right
//     to create them.
//   - Judge sums a host's status up in a Standing against what it should
//     apply (Targets: what each obj:// source holds, or a rollout's
//     revision for the hosts of its wave); Wave and WaveHealth say how a
//     rollout's wave stands, for release.Auto (FollowAuto runs it on the
//     fleet's status).
//   - View, Print and PrintWave are `ccm fleet status` and `ccm rollout
//     status`: the hosts judged, filtered and grouped by revision.
//   - Publishing never blocks the engine: events wait in a bounded queue
//     while NATS is away (the oldest are dropped, and counted, when it
//     fills) and go out when it is back.
package report
