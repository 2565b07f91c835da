// Package control is the daemon's local control socket and its client:
// `ccm status`, `ccm events`, `ccm pause`, `ccm resume` and `ccm recheck`
// talk to a running `ccm run --watch` through it.
//
// The socket is a unix socket (DefaultPath, or $CCM_SOCKET) serving JSON
// over HTTP/1.1 under /v1/. Guarantees:
//   - Root-only: the socket is bound in a directory that must be private
//     (0700, created so when missing) and pass the ownership rule of
//     internal/ownership (owned by root or the daemon's user, as every
//     directory above it), checked by descriptor; the socket is bound,
//     made 0600 and removed through that descriptor, never by its path,
//     so no one can swap a link in and have root change another file.
//     Every connection's peer credentials are checked: only root and the
//     daemon's own user are answered.
//   - Clients believe only a daemon run by root or by their own user, as
//     the peer credentials tell (ErrNotTrusted otherwise).
//   - Bounded: the recent events are a ring of RingSize; a follower that
//     falls behind the live stream is disconnected, never waited for.
//   - A pause records who asked (the peer's user, and the user they came
//     from through sudo) and until when.
package control
