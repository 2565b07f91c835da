// Package bundle makes, signs, checks and unpacks manifest bundles: gzipped
// tarballs holding a manifest.yaml and the files it refers to, upstream
// CCM's layout for manifests served from NATS object stores and HTTP.
//
// Guarantees:
//   - Pack is deterministic: the same directory gives the same bytes (names
//     sorted, times, owners and modes normalised), so republishing an
//     unchanged bundle changes no digest and reloads nothing.
//   - Extract writes only under the directory it is given, which it
//     creates: absolute names, ".." components, links, devices and other
//     special entries are refused, and size, entry counts, name lengths
//     and depths are bounded.
//   - A signature is ed25519 over a statement naming the tarball's SHA-256,
//     the signing time and the key (Attestation). Verify refuses an
//     unsigned or badly signed bundle when keys are given, and returns the
//     statement, whose time lets hosts refuse to go back to an older one.
package bundle
