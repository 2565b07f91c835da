// Package control is the daemon's local control socket and its client:
// `ccm status`, `ccm events`, `ccm pause`, `ccm resume` and `ccm recheck`
// talk to a running `ccm run --watch` through it.
//
// The socket is a unix socket (DefaultPath, or $CCM_SOCKET) serving JSON
// over HTTP/1.1 under /v1/. Guarantees:
//   - Root-only: the socket is created 0600 in a directory created 0700,
//     and every connection's peer credentials are checked: only root and
//     the daemon's own user are answered.
//   - Bounded: the recent events are a ring of RingSize; a follower that
//     falls behind the live stream is disconnected, never waited for.
//   - A pause records who asked (the peer's user, and the user they came
//     from through sudo) and until when.
package control
