package control

import (
	"context"
	"fmt"
	"net"
	"os/user"
	"strconv"

	"golang.org/x/sys/unix"
)

// peer is the user at the other end of a connection, as the kernel tells.
type peer struct {
	uid int
	ok  bool
}

type peerKey struct{}

// peerOf reads a unix connection's peer credentials.
func peerOf(c net.Conn) peer {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return peer{}
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return peer{}
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil || credErr != nil {
		return peer{}
	}
	return peer{uid: int(cred.Uid), ok: true}
}

func withPeer(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, peerKey{}, peerOf(c))
}

func peerFrom(ctx context.Context) peer {
	p, _ := ctx.Value(peerKey{}).(peer)
	return p
}

// allowed reports whether the peer may use the socket: root, or the
// daemon's own user.
func (p peer) allowed(self int) bool { return p.ok && (p.uid == 0 || p.uid == self) }

// who names the peer for a pause: its user, and the user it came from
// through sudo when the client says so ("root (sudo alice)").
func (p peer) who(sudoUser string) string {
	name := strconv.Itoa(p.uid)
	if u, err := user.LookupId(name); err == nil {
		name = u.Username
	}
	if sudoUser != "" && sudoUser != name {
		name = fmt.Sprintf("%s (sudo %s)", name, sudoUser)
	}
	return name
}
