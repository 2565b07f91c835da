// Package release publishes manifest bundles to NATS JetStream object
// stores and keeps what an operator needs to change a fleet on purpose:
// the history of each bundle's revisions, to roll back to, and the
// record of a staged rollout, from which each host decides itself which
// revision it runs.
//
//   - The object KEY is the bundle hosts run; each publication is also
//     kept as .history/KEY/NNNNNNNN (the last N, 10 by default), with its
//     signature, when and by whom it was pushed.
//   - Publishing replaces the object in one put: bundle and signature
//     change together.
//   - Object is one bundle as an operator changes it: Rollback, Widen and
//     Abort, and NotOlder and Check refuse (ErrRefused) what hosts would
//     refuse before anything is published. A signed revision that goes back
//     is signed anew (Signer), since hosts never go back to an older
//     signature.
//   - Auto widens a rollout by itself while its wave stays healthy and
//     aborts it when a host of the wave fails; the wave's health comes
//     from the caller (report.WaveHealth), and time from an injectable
//     clock. ParsePlan reads push's --canary and --auto.
//   - What an operator hands in (a bundle file, a key file, push's flags)
//     that cannot be used is ErrRefused too: the request is wrong.
package release
