package natsconn

import (
	"log/slog"
	"sync"
)

// Lazy dials on first use and hands every caller the same connection, so
// a process that names no NATS source never connects.
type Lazy struct {
	settings Settings
	log      *slog.Logger

	once sync.Once
	c    *Conn
	err  error
}

// NewLazy returns a Lazy that dials with s.
func NewLazy(s Settings, log *slog.Logger) *Lazy { return &Lazy{settings: s, log: log} }

// Get dials the first time and returns the connection.
func (l *Lazy) Get() (*Conn, error) {
	l.once.Do(func() { l.c, l.err = Dial(l.settings, l.log) })
	return l.c, l.err
}

// Close closes the connection if one was dialled.
func (l *Lazy) Close() {
	l.once.Do(func() { l.err = ErrNotConnected })
	if l.c != nil {
		l.c.Close()
	}
}
