// Package archive is the archive resource: an archive downloaded over HTTP
// or HTTPS by the http provider, verified, owned, and extracted with tar or
// unzip.
//
// Guarantees:
//   - The archive is downloaded into a stage beside it that only root can
//     enter, as a root-owned 0600 file, its SHA-256 verified, then given to
//     the requested owner and group and moved into place: a partial or
//     corrupt download never appears at the archive's path, and no one else
//     can touch it before.
//   - What is extracted is what was verified: before each extraction the
//     archive is copied, hashed as it is copied, into a root-owned 0600
//     file in a stage only root can enter, and tar or unzip reads that
//     copy, whoever rewrites the archive meanwhile.
//   - An archive whose owner is not root never yields a file owned by root,
//     setuid or setgid: what it unpacks is given to the owner and group,
//     and a device, FIFO or socket in it is refused, nothing extracted.
//   - What is written is bounded by what it really holds, not by what
//     headers declare (limits.go): a download by the free space of its
//     filesystem; an extraction by that of extract_parent's, by a size
//     per member and by a number of members. tar is fed only bytes
//     already counted; a zip is counted, decompressed, before unzip runs.
//     While writing, the free space is read again, so writers at once
//     cannot together fill the filesystem. Past a bound nothing is
//     extracted.
//   - Extraction runs tar or unzip without a shell, under a timeout that
//     stops the tool's whole process group (SIGTERM, then SIGKILL).
//   - Credentials (the password, header values, the URL's userinfo and
//     query) never appear in errors, reasons or noop messages.
//   - Decisions follow the seed's decision table and matrix; see state.go
//     and plan.go.
package archive
