package control

import "errors"

var (
	// ErrNoDaemon means nothing listens on the socket.
	ErrNoDaemon = errors.New("control: no ccm daemon answers")
	// ErrDenied means the daemon refused the client's user.
	ErrDenied = errors.New("control: permission denied")
	// ErrUnsafeDir means the socket's directory grants others access.
	ErrUnsafeDir = errors.New("control: the socket's directory is not private")
	// ErrNotTrusted means the socket is served by a user other than root
	// or the client's own: not a ccm daemon to believe.
	ErrNotTrusted = errors.New("control: the socket is not served by root")
	// ErrInUse means another daemon already listens on the socket.
	ErrInUse = errors.New("control: another ccm daemon listens on the socket")
	// ErrFellBehind ends an event stream the client read too slowly.
	ErrFellBehind = errors.New("control: the event stream fell behind; run ccm events again")
	// ErrRequest is an error the daemon reported for a request.
	ErrRequest = errors.New("control")
)

// invalid is a request that is not well formed, which the server answers
// as a bad request.
type invalid string

func (e invalid) Error() string { return string(e) }
