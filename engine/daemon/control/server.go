package control

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

// Server answers the control socket's clients.
type Server struct {
	ctl  Controller
	log  *slog.Logger
	ring *ring
	sock *socket
	ln   net.Listener
	http *http.Server
}

// Listen opens the socket at path: its directory is created 0700 when
// missing and must be private and pass the ownership rule (ErrUnsafeDir,
// ownership.ErrUnsafe), a stale socket no daemon answers on is replaced,
// and the socket is made 0600. Serve answers on it.
func Listen(path string, ctl Controller, log *slog.Logger) (*Server, error) {
	sock, err := openSocket(path)
	if err != nil {
		return nil, err
	}
	ln, err := sock.listen()
	if err != nil {
		return nil, errors.Join(err, sock.close())
	}
	s := &Server{ctl: ctl, log: log, ring: newRing(), sock: sock, ln: ln}
	s.http = &http.Server{Handler: s.routes(), ConnContext: withPeer, ReadHeaderTimeout: 10 * time.Second}
	return s, nil
}

// Serve answers until ctx ends, then closes and removes the socket.
func (s *Server) Serve(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		// Followers never finish by themselves; Close ends them.
		if err := s.http.Shutdown(sctx); err != nil {
			s.http.Close()
		}
	})
	defer stop()
	err := s.http.Serve(s.ln)
	s.ln.Close()
	s.sock.remove()
	s.sock.close()
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Publish records an event for `ccm events` and hands it to followers.
// It never blocks.
func (s *Server) Publish(ev *engine.Event) { s.ring.publish(ev) }

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/status", s.status)
	mux.HandleFunc("GET /v1/events", s.events)
	mux.HandleFunc("POST /v1/pause", command(s.pause))
	mux.HandleFunc("POST /v1/resume", command(s.resume))
	mux.HandleFunc("POST /v1/recheck", command(s.recheck))
	return s.guard(mux)
}

// guard answers only root and the daemon's own user.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !peerFrom(r.Context()).trusted() {
			reply(w, http.StatusForbidden, Reply{Error: "the control socket answers root only"})
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) status(w http.ResponseWriter, _ *http.Request) {
	reply(w, http.StatusOK, s.ctl.Status())
}

// events writes the recent events as JSON lines and, with ?follow=1, the
// live ones until the client goes or falls behind.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	follow := r.URL.Query().Get("follow") == "1"
	past, live, cancel := s.ring.recent(follow)
	defer cancel()
	w.Header().Set("Content-Type", "application/x-ndjson")
	enc := json.NewEncoder(w)
	for _, ev := range past {
		if enc.Encode(ev) != nil {
			return
		}
	}
	flusher, _ := w.(http.Flusher)
	if flusher != nil {
		flusher.Flush()
	}
	for live != nil {
		select {
		case <-r.Context().Done():
			return
		case ev, ok := <-live:
			if !ok {
				_ = enc.Encode(Reply{Error: ErrFellBehind.Error()})
				return
			}
			if enc.Encode(ev) != nil {
				return
			}
			if flusher != nil {
				flusher.Flush()
			}
		}
	}
}

// command serves one kind of request: decoded from JSON, then done by
// do, whose reply or error answers.
func command[R any](do func(*http.Request, R) (Reply, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req R
		if !decode(w, r, &req) {
			return
		}
		rep, err := do(r, req)
		if err != nil {
			fail(w, err)
			return
		}
		reply(w, http.StatusOK, rep)
	}
}

func (s *Server) pause(r *http.Request, req PauseRequest) (Reply, error) {
	if !req.Valid() {
		return Reply{}, invalid("name resources or ask for all, not both, and a duration that is not negative")
	}
	now := time.Now()
	p := status.Pause{By: peerFrom(r.Context()).who(req.SudoUser), Since: now}
	if req.For > 0 {
		p.Until = now.Add(req.For)
	}
	if req.All {
		s.ctl.PauseAll(p)
		return Reply{Pause: &p}, nil
	}
	return Reply{Pause: &p}, s.ctl.Pause(req.Resources, p)
}

func (s *Server) resume(_ *http.Request, req ResumeRequest) (Reply, error) {
	if !req.Valid() {
		return Reply{}, invalid("name resources or ask for all, not both")
	}
	if req.All {
		s.ctl.ResumeAll()
		return Reply{}, nil
	}
	return Reply{}, s.ctl.Resume(req.Resources)
}

func (s *Server) recheck(_ *http.Request, req RecheckRequest) (Reply, error) {
	if req.Resource == "" {
		s.ctl.Recheck()
		return Reply{}, nil
	}
	return Reply{}, s.ctl.RecheckResource(req.Resource)
}

// maxRequest bounds a request body.
const maxRequest = 64 << 10

func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxRequest))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		reply(w, http.StatusBadRequest, Reply{Error: "bad request: " + err.Error()})
		return false
	}
	return true
}

func fail(w http.ResponseWriter, err error) {
	var bad invalid
	code := http.StatusInternalServerError
	switch {
	case errors.As(err, &bad):
		code = http.StatusBadRequest
	case errors.Is(err, engine.ErrUnknownResource):
		code = http.StatusNotFound
	}
	reply(w, code, Reply{Error: err.Error()})
}

func reply(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
