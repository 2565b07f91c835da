// Package registration is the data model of service registrations, as
// upstream CCM defines it: a resource's register_when_stable entries (a
// cluster, service, protocol, address, port, priority, TTL and
// annotations), the NATS subject each is published on, its JSON payload,
// the filters registrations() and `ccm registration query` select with,
// and the Prometheus file_sd rendering of a lookup's result.
//
// Guarantees:
//   - Subjects, instance ids and payloads are upstream's byte for byte
//     (choria.ccm.registration.v1.CLUSTER.PROTOCOL.SERVICE.ADDRESS.ID, the
//     address's dots as underscores, ID the FNV-64a hash of the entry's
//     identity), so upstream agents and ccm read each other's entries.
//   - An entry is validated as upstream validates it before anything is
//     published; a bad one is refused when the manifest loads, at its
//     position.
//   - Nothing here talks to NATS: the transport is engine/fleet/registry's.
package registration
