package natstest

import (
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Env points the process's NATS settings at s until the test ends, as a
// command line reads them: $NATS_URL is s, no NATS context is chosen, and
// the configuration home, where contexts are kept, is an empty temporary
// directory, so the user's own contexts play no part.
func (s *Server) Env() {
	s.t.Setenv("NATS_URL", s.URL())
	s.t.Setenv("NATS_CONTEXT", "")
	s.t.Setenv("XDG_CONFIG_HOME", s.t.TempDir())
}

// JetStream connects to s and returns its JetStream API, for a test to
// see or prepare what ccm reads and writes; the connection closes when
// the test ends.
func (s *Server) JetStream() jetstream.JetStream {
	s.t.Helper()
	nc, err := nats.Connect(s.URL())
	if err != nil {
		s.t.Fatalf("natstest: %v", err)
	}
	s.t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		s.t.Fatalf("natstest: %v", err)
	}
	return js
}
