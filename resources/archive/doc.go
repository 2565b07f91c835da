// Package archive is the archive resource: an archive downloaded over HTTP
// or HTTPS by the http provider, verified, owned, and extracted with tar or
// unzip.
//
// Guarantees:
//   - The archive is written to a temporary file in its own directory, owned
//     by the requested owner and group before any content is written, its
//     SHA-256 verified, then renamed into place: a partial or corrupt
//     download never appears at the archive's path.
//   - Extraction runs tar or unzip without a shell, under a timeout that
//     stops the tool's whole process group (SIGTERM, then SIGKILL).
//   - Credentials (the password, header values, the URL's userinfo and
//     query) never appear in errors, reasons or noop messages.
//   - Decisions follow the seed's decision table and matrix; see state.go
//     and plan.go.
package archive
