package control_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/control"
)

// event is the n-th event of a test, named for n.
func event(n int) *engine.Event { return &engine.Event{Type: "file", Name: fmt.Sprintf("/e%d", n)} }

// names reads the recent events the daemon at path holds.
func names(t *testing.T, path string) []string {
	t.Helper()
	var out []string
	err := control.NewClient(path).Events(t.Context(), false, func(ev *engine.Event) error {
		out = append(out, ev.Name)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRecentEventsOldestFirst: `ccm events` shows the last RingSize
// events, oldest first, however many came before.
func TestRecentEventsOldestFirst(t *testing.T) {
	for _, n := range []int{0, 1, 3, control.RingSize, control.RingSize + 1, 2*control.RingSize + 7} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			path, srv := serveWith(t, &recorder{})
			for i := range n {
				srv.Publish(event(i))
			}
			got := names(t, path)
			first := max(0, n-control.RingSize)
			if len(got) != n-first {
				t.Fatalf("%d events, want %d", len(got), n-first)
			}
			for i, name := range got {
				if want := event(first + i).Name; name != want {
					t.Fatalf("event %d is %s, want %s", i, name, want)
				}
			}
		})
	}
}

// TestFollowingGetsTheLiveEvents: with follow, the recent events come
// first, then each event published after, in order, until the client
// stops.
func TestFollowingGetsTheLiveEvents(t *testing.T) {
	path, srv := serveWith(t, &recorder{})
	srv.Publish(event(0))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	got := make(chan string)
	done := make(chan error)
	go func() {
		done <- control.NewClient(path).Events(ctx, true, func(ev *engine.Event) error {
			got <- ev.Name
			return nil
		})
	}()
	// The recent event is written once the follower is subscribed: what
	// is published after it is live.
	if name := <-got; name != "/e0" {
		t.Fatalf("first %s", name)
	}
	for i := 1; i <= 3; i++ {
		srv.Publish(event(i))
		if name := <-got; name != event(i).Name {
			t.Fatalf("live event %s, want %s", name, event(i).Name)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("a follower that stops: %v", err)
	}
}

// TestAFollowerThatFallsBehindIsDropped: a client that stops reading is
// disconnected with ErrFellBehind once its buffers fill; publishing
// never waits for it.
func TestAFollowerThatFallsBehindIsDropped(t *testing.T) {
	path, srv := serveWith(t, &recorder{})
	srv.Publish(event(0))
	subscribed, release := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	read := 0
	go func() {
		done <- control.NewClient(path).Events(t.Context(), true, func(*engine.Event) error {
			if read++; read == 1 {
				close(subscribed)
				<-release
			}
			return nil
		})
	}()
	<-subscribed
	// Far more than the socket's and the follower's buffers hold.
	const flood = 20000
	for i := 1; i <= flood; i++ {
		srv.Publish(event(i))
	}
	close(release)
	if err := <-done; !errors.Is(err, control.ErrFellBehind) || read >= flood {
		t.Fatalf("after reading %d events: %v; want ErrFellBehind", read, err)
	}
	if got := names(t, path); len(got) != control.RingSize || got[len(got)-1] != event(flood).Name {
		t.Fatalf("the recent events after a flood: %d, last %v", len(got), got[len(got)-1:])
	}
}

// TestAClientErrorEndsTheStream: the callback's error is Events' error.
func TestAClientErrorEndsTheStream(t *testing.T) {
	path, srv := serveWith(t, &recorder{})
	for i := range 3 {
		srv.Publish(event(i))
	}
	stop := errors.New("enough")
	calls := 0
	err := control.NewClient(path).Events(t.Context(), false, func(*engine.Event) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Fatalf("Events = %v after %d calls", err, calls)
	}
}

// TestStoppingEndsFollowers: a daemon that stops ends the streams of its
// followers, which never end by themselves, and removes its socket; the
// follower is told the daemon went away.
func TestStoppingEndsFollowers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run", "ccm.sock")
	srv, err := control.Listen(path, &recorder{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(t.Context())
	served := make(chan error)
	go func() { served <- srv.Serve(ctx) }()
	srv.Publish(event(0))
	following, followed := make(chan struct{}), make(chan error)
	go func() {
		followed <- control.NewClient(path).Events(t.Context(), true, func(*engine.Event) error {
			close(following)
			return nil
		})
	}()
	<-following
	stop()
	if err := <-served; err != nil {
		t.Fatalf("Serve = %v", err)
	}
	if err := <-followed; !errors.Is(err, control.ErrNoDaemon) {
		t.Fatalf("the follower was told %v", err)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("the socket stayed: %v", err)
	}
}

// TestPublishFromManyWorkers: the engine's workers publish at once while
// clients read and follow; every event is kept once. Run with -race.
func TestPublishFromManyWorkers(t *testing.T) {
	path, srv := serveWith(t, &recorder{})
	const workers, each = 8, 100
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	followed := make(chan error)
	go func() {
		followed <- control.NewClient(path).Events(ctx, true, func(*engine.Event) error { return nil })
	}()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				srv.Publish(event(w*each + i))
			}
		})
	}
	wg.Go(func() {
		_ = control.NewClient(path).Events(t.Context(), false, func(*engine.Event) error { return nil })
	})
	wg.Wait()
	seen := map[string]bool{}
	for _, n := range names(t, path) {
		seen[n] = true
	}
	if len(seen) != workers*each {
		t.Fatalf("%d distinct events kept, want %d", len(seen), workers*each)
	}
	cancel()
	if err := <-followed; err != nil && !errors.Is(err, control.ErrFellBehind) {
		t.Fatalf("the follower: %v", err)
	}
}
