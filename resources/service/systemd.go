package service

import (
	"context"
	"fmt"
	"sync"
	"time"

	sddbus "github.com/coreos/go-systemd/v22/dbus"
)

// reloadMu keeps concurrent resources from reloading systemd at once;
// one reload serves whoever was waiting for it.
var reloadMu sync.Mutex

// reload makes systemd re-read unit files and links. Manager.Reload
// replies once the reload is over.
func reload(ctx context.Context, conn *sddbus.Conn) error {
	reloadMu.Lock()
	defer reloadMu.Unlock()
	if err := conn.ReloadContext(ctx); err != nil {
		return fmt.Errorf("reloading systemd: %w", err)
	}
	return nil
}

// jobCall queues a job and returns its id; the result arrives on ch.
type jobCall func(ctx context.Context, unit, mode string, ch chan<- string) (int, error)

// runJob queues a start, stop or restart and waits for its result.
func runJob(ctx context.Context, verb, unit string, call jobCall) error {
	// Buffered: go-systemd sends the result from its only signal
	// goroutine, which must never wait for us (shared/notes/libraries.md §2.3).
	ch := make(chan string, 1)
	// "replace" lets the job supersede a conflicting queued one, as
	// systemctl does.
	if _, err := call(ctx, unit, "replace", ch); err != nil {
		return fmt.Errorf("%s %s: %w", verb, unit, err)
	}
	select {
	case res := <-ch:
		if res != "done" {
			return fmt.Errorf("%w: %s %s: job %s; see journalctl -u %s", ErrJobFailed, verb, unit, res, unit)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s %s: waiting for the job: %w", verb, unit, ctx.Err())
	}
}

// setEnabled enables or disables the unit's boot links and reloads
// systemd when links changed, so dependencies and UnitFileState follow.
func setEnabled(ctx context.Context, conn *sddbus.Conn, unit string, enable bool) error {
	var changed int
	if enable {
		_, changes, err := conn.EnableUnitFilesContext(ctx, []string{unit}, false, false)
		if err != nil {
			return fmt.Errorf("enabling %s: %w", unit, err)
		}
		changed = len(changes)
	} else {
		changes, err := conn.DisableUnitFilesContext(ctx, []string{unit}, false)
		if err != nil {
			return fmt.Errorf("disabling %s: %w", unit, err)
		}
		changed = len(changes)
	}
	if changed == 0 {
		return nil
	}
	return reload(ctx, conn)
}

// waitStopped waits for a unit that is stopping to finish: a start job
// queued now would cancel the stop job of whoever is stopping it (an
// operator's `systemctl stop` would fail with "Job canceled"). Stops take
// milliseconds; ctx bounds a stop that hangs.
func waitStopped(ctx context.Context, conn *sddbus.Conn, unit string) error {
	for {
		p, err := conn.GetUnitPropertyContext(ctx, unit, "ActiveState")
		if err != nil {
			return fmt.Errorf("waiting for %s to stop: %w", unit, err)
		}
		if state, _ := p.Value.Value().(string); state != "deactivating" {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s to stop: %w", unit, ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
}
