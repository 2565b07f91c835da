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
package release
