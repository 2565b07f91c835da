package dnf

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

// recorded is one expected command and what the real program printed,
// from files under testdata.
type recorded struct {
	line   string
	stdout string
	stderr string
	exit   int
}

// replay is a Runner that answers the expected commands in order with
// their recorded output, and fails the test on any other command.
type replay struct {
	t     *testing.T
	mu    sync.Mutex
	calls []recorded
}

var _ command.Runner = (*replay)(nil)

func newReplay(t *testing.T, calls ...recorded) *replay {
	r := &replay{t: t, calls: calls}
	t.Cleanup(func() {
		if len(r.calls) > 0 {
			t.Errorf("expected commands never ran: %v", r.calls)
		}
	})
	return r
}

func (r *replay) Run(_ context.Context, c command.Cmd) (command.Result, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	line := manager.CommandLine(c)
	if len(r.calls) == 0 {
		r.t.Errorf("unexpected command %q", line)
		return command.Result{ExitCode: 127}, nil
	}
	next := r.calls[0]
	r.calls = r.calls[1:]
	if line != next.line {
		r.t.Errorf("command = %q\nwant      %q", line, next.line)
	}
	return command.Result{ExitCode: next.exit, Stdout: r.read(next.stdout), Stderr: r.read(next.stderr)}, nil
}

func (r *replay) read(name string) []byte {
	if name == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		r.t.Fatal(err)
	}
	return b
}

func newProvider(t *testing.T, calls ...recorded) *Provider {
	return New(Options{Runner: newReplay(t, calls...), DBDir: t.TempDir(), Now: settled})
}

// settled is a clock an hour ahead, so that the database directory, just
// created, does not look too recently written to trust.
func settled() time.Time { return time.Now().Add(time.Hour) }

// rpmQuery is the command line of a status query of names.
func rpmQuery(names string) string {
	return "rpm -q " + names + " --queryformat " + queryFormat
}
