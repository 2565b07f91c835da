package control

import (
	"context"
	"fmt"
	"net"
	"os/user"
	"strconv"

	"github.com/reactive-ccm/ccm/internal/ownership"
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

// trusted reports whether the peer is root or this process's user: whom
// the daemon answers, and whom a client believes to be the daemon.
func (p peer) trusted() bool { return p.ok && ownership.Trusted(uint32(p.uid)) }

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

// untrustedPeer is a socket served by a user other than root or the
// client's own: a daemon that is not one, whose answers are not believed.
type untrustedPeer struct {
	path string
	uid  int
	ok   bool
}

func (e *untrustedPeer) Error() string {
	who := "an unknown user"
	if e.ok {
		who = ownership.UserName(uint32(e.uid))
	}
	return fmt.Sprintf("%v: %s is served by %s, not by root; refusing to believe it: remove it, or name the daemon's socket (--socket, $%s)", ErrNotTrusted, e.path, who, PathEnv)
}

func (e *untrustedPeer) Is(target error) bool { return target == ErrNotTrusted }
