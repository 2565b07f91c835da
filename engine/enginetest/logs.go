package enginetest

import (
	"bytes"
	"sync"
)

// Logs collects what a logger writes, for a test to read while the engine
// keeps logging: slog.New(slog.NewTextHandler(logs, nil)).
type Logs struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *Logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// String returns everything written so far.
func (l *Logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
