package driftoracle_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// daemon is a running `ccm run --watch --json`.
type daemon struct {
	cmd *exec.Cmd
	// exited is closed once the process was waited for.
	exited chan struct{}

	mu sync.Mutex
	// log is what the daemon wrote to stderr.
	log bytes.Buffer
	// events are the events it printed, with when they were read.
	events []event
	// last is when the last event was read.
	last time.Time
	// changed is signalled (without blocking) on every event.
	changed chan struct{}
}

// event is what the oracle reads of a daemon's event.
type event struct {
	at        time.Time
	Name      string   `json:"name"`
	Trigger   string   `json:"trigger"`
	Changed   bool     `json:"changed"`
	Failed    bool     `json:"failed"`
	Contested bool     `json:"contested"`
	Error     []string `json:"error"`
}

func (e event) String() string {
	s := fmt.Sprintf("%s %s trigger=%s changed=%t", e.at.Format("15:04:05.000"), e.Name, e.Trigger, e.Changed)
	if e.Failed {
		s += fmt.Sprintf(" failed: %s", strings.Join(e.Error, "; "))
	}
	if e.Contested {
		s += " contested"
	}
	return s
}

// startDaemon starts the binary in watch mode on manifest, with the
// periodic re-check off and contests never declared (repeated tampers
// of one path are the oracle's bursts, not a fight to back off from).
func startDaemon(t *testing.T, c config, manifest, state string) *daemon {
	t.Helper()
	args := []string{"run", "--watch", "--json", "--recheck", "0", "--socket", "", "--state-dir", state,
		"--contest-limit", "1000000000", "--contest-window", contestWindow.String(), "--metrics-listen", "127.0.0.1:0"}
	if c.poll {
		args = append(args, "--poll", pollInterval.String())
	}
	if c.workers1 {
		args = append(args, "--workers", "1")
	}
	d := &daemon{cmd: exec.Command(bin, append(args, manifest)...), exited: make(chan struct{}), changed: make(chan struct{}, 1)}
	stdout, err := d.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	d.cmd.Stderr = lockedWriter{d}
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go d.read(stdout)
	t.Cleanup(d.stop)
	return d
}

type lockedWriter struct{ d *daemon }

func (w lockedWriter) Write(p []byte) (int, error) {
	w.d.mu.Lock()
	defer w.d.mu.Unlock()
	return w.d.log.Write(p)
}

func (d *daemon) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev event
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		ev.at = time.Now()
		d.mu.Lock()
		d.events = append(d.events, ev)
		d.last = ev.at
		d.mu.Unlock()
		select {
		case d.changed <- struct{}{}:
		default:
		}
	}
	_ = d.cmd.Wait()
	close(d.exited)
}

func (d *daemon) stop() {
	select {
	case <-d.exited:
		return
	default:
	}
	_ = d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.exited:
	case <-time.After(10 * time.Second):
		_ = d.cmd.Process.Kill()
		<-d.exited
	}
}

// alive reports whether the daemon still runs.
func (d *daemon) alive() bool {
	select {
	case <-d.exited:
		return false
	default:
		return true
	}
}

// waitEvents waits until n events with trigger were read, or the
// daemon exited, for at most patience.
func (d *daemon) waitEvents(trigger string, n int, patience time.Duration) bool {
	deadline := time.After(patience)
	for {
		got := 0
		d.mu.Lock()
		for _, ev := range d.events {
			if ev.Trigger == trigger {
				got++
			}
		}
		d.mu.Unlock()
		if got >= n {
			return true
		}
		select {
		case <-d.changed:
		case <-d.exited:
			return false
		case <-deadline:
			return false
		}
	}
}

// idleSince is when the daemon last reported an event.
func (d *daemon) idleSince() time.Time {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.last
}

// eventsAbout lists the events naming one of paths since from.
func (d *daemon) eventsAbout(paths map[string]bool, from time.Time) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for _, ev := range d.events {
		if paths[ev.Name] && !ev.at.Before(from) {
			out = append(out, ev.String())
		}
	}
	return out
}

// count counts the events since from that keep says.
func (d *daemon) count(from time.Time, keep func(event) bool) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for _, ev := range d.events {
		if !ev.at.Before(from) && keep(ev) {
			n++
		}
	}
	return n
}

// logTail is the last n lines of the daemon's log.
func (d *daemon) logTail(n int) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	lines := strings.Split(strings.TrimRight(d.log.String(), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

var metricsAddr = regexp.MustCompile(`serving metrics.*addr=(\S+)`)

// scraper opens a connection per scrape, so that every sample of the
// daemon's descriptors and goroutines counts the same one connection.
var scraper = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// metrics scrapes the daemon's metrics endpoint for the series named.
func (d *daemon) metrics(names ...string) (map[string]float64, error) {
	d.mu.Lock()
	m := metricsAddr.FindStringSubmatch(d.log.String())
	d.mu.Unlock()
	if m == nil {
		return nil, fmt.Errorf("the daemon logged no metrics address")
	}
	resp, err := scraper.Get("http://" + m[1] + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok || !want[name] {
			continue
		}
		if v, err := strconv.ParseFloat(value, 64); err == nil {
			out[name] = v
		}
	}
	return out, sc.Err()
}
