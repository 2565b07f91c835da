// Package natstest runs a real NATS server with JetStream inside a test
// process: on a loopback port, storing in a temporary directory, stopped
// when the test ends. It can be stopped and started again on the same port
// and store, to test what happens while NATS is away.
package natstest

import (
	"crypto/tls"
	"net"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Server is one embedded NATS server.
type Server struct {
	t    testing.TB
	opts server.Options
	srv  *server.Server
}

// Options tune the server.
type Options struct {
	// User and Password, when set, are required of clients.
	User, Password string
	// NKeys, when set, are the public keys of the users let in, each
	// proving it holds the seed (see NKeyUser).
	NKeys []string
	// Operator, when set, runs the server in operator mode: only users
	// of its account, with their creds files, are let in.
	Operator *Operator
	// TLS, when set, makes the server speak TLS only.
	TLS *tls.Config
	// Config, when set, is a nats-server configuration file the server
	// runs (its accounts, users and permissions), on a loopback port and
	// storing in a temporary directory; the fields above are then unused.
	Config string
	// NoJetStream runs the server without JetStream.
	NoJetStream bool
}

// Start runs a server until the test ends.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	s := &Server{t: t, opts: server.Options{
		Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(),
		NoLog: true, NoSigs: true, Username: o.User, Password: o.Password,
		TLS: o.TLS != nil, TLSConfig: o.TLS, TLSTimeout: 5,
	}}
	if o.Config != "" {
		s.opts = fromConfig(t, o.Config)
	}
	s.opts.JetStream = s.opts.JetStream && !o.NoJetStream
	for _, k := range o.NKeys {
		s.opts.Nkeys = append(s.opts.Nkeys, &server.NkeyUser{Nkey: k})
	}
	if o.Operator != nil {
		o.Operator.configure(t, &s.opts)
	}
	s.start()
	// The second start reuses the port the first one got.
	s.opts.Port = s.srv.Addr().(*net.TCPAddr).Port
	t.Cleanup(s.Stop)
	return s
}

// fromConfig reads a nats-server configuration file.
func fromConfig(t testing.TB, file string) server.Options {
	t.Helper()
	opts, err := server.ProcessConfigFile(file)
	if err != nil {
		t.Fatalf("natstest: %v", err)
	}
	opts.Host, opts.Port, opts.StoreDir, opts.NoLog, opts.NoSigs = "127.0.0.1", -1, t.TempDir(), true, true
	return *opts
}

func (s *Server) start() {
	s.t.Helper()
	srv, err := server.NewServer(&s.opts)
	if err != nil {
		s.t.Fatalf("natstest: %v", err)
	}
	srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		s.t.Fatal("natstest: the server did not come up within 10s")
	}
	s.srv = srv
}

// URL is the server's client URL.
func (s *Server) URL() string { return s.srv.ClientURL() }

// Stop shuts the server down; Restart brings it back.
func (s *Server) Stop() {
	if s.srv == nil {
		return
	}
	s.srv.Shutdown()
	s.srv.WaitForShutdown()
	s.srv = nil
}

// Restart starts a stopped server again, on the same port and store.
func (s *Server) Restart() {
	s.t.Helper()
	s.Stop()
	s.start()
}
