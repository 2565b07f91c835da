// Package source fetches, verifies, caches and watches what ccm compiles
// that does not live on the local disk: manifest bundles from NATS
// JetStream object stores (obj://BUCKET/KEY) and HTTP(S), and data from
// NATS key-value buckets (kv://BUCKET/KEY, for --hiera and kvGet()) and
// HTTP(S).
//
// Guarantees:
//   - Every accepted revision is written to a cache directory (under the
//     state directory) before it is used; a start-up without NATS or the
//     HTTP server converges from the cache and says so.
//   - With trusted keys, a bundle (or https data) without a valid ed25519
//     signature, or signed before the newest one the host accepted from the
//     source, is refused and the revision in force stays; a refusal is
//     remembered by revision and signature. Without trusted keys, bundles
//     from NATS and kv:// values are used only when the options allow
//     unsigned input (a NATS server is not authenticated).
//   - Trust belongs to the bytes: the cache records the key each revision
//     was verified with, and a set with trusted keys uses no cached copy
//     verified otherwise.
//   - An https source never follows a redirect to http unless AllowHTTP.
//   - A host in the wave of a staged rollout (package release) takes the
//     rollout's revision from the history instead of the bundle.
//   - Watching never polls NATS: object stores and key-value buckets are
//     watched through JetStream watchers, re-armed after every reconnect;
//     HTTP sources are polled with If-None-Match/If-Modified-Since.
//   - Fetch failures back off exponentially and never end the process; a
//     removed object or key keeps the last revision in force, reported.
//   - A change calls the Set's notify function, which feeds the same reload
//     path as a local manifest edit.
package source
