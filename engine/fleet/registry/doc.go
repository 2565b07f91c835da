// Package registry is the service registry of a fleet: it announces the
// registrations (register_when_stable) of this host's stable resources to
// NATS, withdraws them when they stop being stable, and answers
// registrations() and `ccm registration query|watch` from the JetStream
// stream that holds everyone's, as upstream CCM's registration package
// does on the same subjects, payloads and stream.
//
// Guarantees:
//   - Level-triggered publishing: Announce records which entries should
//     stand and returns at once (it is called with the engine's lock
//     held); one loop publishes what is missing or changed, withdraws what
//     no stable resource announces any more, and publishes again before
//     an entry's TTL (or, without one, the stream's max age) runs out.
//     NATS being away delays this, with back-off, and never blocks the
//     engine.
//   - A withdrawal is a message, not a purge: a Remove marker
//     (Nats-Marker-Reason: Remove) rolls the entry's subject up, so every
//     watcher, upstream's included, sees the entry go at once, and
//     lookups, which skip markers, no longer find it.
//   - Lookups read one in-memory copy of the stream, kept current by one
//     ordered consumer over every registration subject; a change wakes
//     the resources whose templates asked a query it concerns
//     (resources.Lookups).
//   - PrintEntries and an Event's JSON and Log are what `ccm registration
//     query` and `watch` print, as upstream's do.
package registry
