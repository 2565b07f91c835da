package health_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/health"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/watchers/systemd/systemdtest"
	"go.yaml.in/yaml/v3"
)

func TestMain(m *testing.M) { os.Exit(systemdtest.Main(m)) }

// parse reads a health_checks list written in YAML for service#web.
func parse(t testing.TB, src string, tmpl resources.Templates) ([]resources.HealthCheck, error) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatalf("bad YAML in test: %v", err)
	}
	if tmpl == nil {
		tmpl = resources.Literal{}
	}
	spec := &resources.Spec{Type: "service", Name: "web", Props: &yaml.Node{Kind: yaml.MappingNode},
		Pos: resources.Pos{File: "m.yaml", Line: 1, Col: 1}, Templates: tmpl}
	return health.Parse(spec, doc.Content[0])
}

// mustParse is parse that fails the test on error.
func mustParse(t testing.TB, src string) []resources.HealthCheck {
	t.Helper()
	checks, err := parse(t, src, nil)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return checks
}

// script writes an executable shell script into dir and returns its path.
func script(t testing.TB, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	resourcetest.WriteFile(t, p, "#!/bin/sh\n"+body+"\n", 0o755)
	return p
}

// clock is a fake resources.Clock: After records the wait and returns a
// channel the test fires with tick.
type clock struct {
	mu      sync.Mutex
	waits   []time.Duration
	pending []chan time.Time
	asked   chan struct{}
}

func newClock() *clock { return &clock{asked: make(chan struct{}, 100)} }

func (c *clock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.mu.Lock()
	c.waits = append(c.waits, d)
	c.pending = append(c.pending, ch)
	c.mu.Unlock()
	c.asked <- struct{}{}
	return ch
}

// tick waits until the check asks to wait, then lets the wait end.
func (c *clock) tick(t testing.TB) {
	t.Helper()
	select {
	case <-c.asked:
	case <-time.After(10 * time.Second):
		t.Fatal("the check never waited on the clock")
	}
	c.mu.Lock()
	ch := c.pending[0]
	c.pending = c.pending[1:]
	c.mu.Unlock()
	ch <- time.Time{}
}

func (c *clock) recorded() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.waits...)
}
