package health_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/health"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/watchers/clock"
	"github.com/reactive-ccm/ccm/watchers/systemd/systemdtest"
	"go.yaml.in/yaml/v3"
)

func TestMain(m *testing.M) {
	if conf := os.Getenv(serveEnv); conf != "" {
		os.Exit(serve(conf))
	}
	if os.Getenv(acmeEnv) != "" {
		os.Exit(serveAcme())
	}
	os.Exit(systemdtest.Main(m))
}

// parse reads a health_checks list written in YAML for service#web.
func parse(t testing.TB, src string, tmpl resources.Templates) ([]resources.HealthCheck, error) {
	t.Helper()
	if tmpl == nil {
		tmpl = resources.Literal{}
	}
	spec := &resources.Spec{Type: "service", Name: "web", Props: &yaml.Node{Kind: yaml.MappingNode},
		Pos: resources.Pos{File: "m.yaml", Line: 1, Col: 1}, Templates: tmpl}
	return health.Parse(spec, resourcetest.YAMLNode(t, src))
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

// waits runs check on a fake clock, letting each of its waits pass at
// once, and returns its result and the waits it asked for.
func waits(t testing.TB, check resources.HealthCheck) (resources.HealthResult, []time.Duration) {
	t.Helper()
	clk := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	done := make(chan resources.HealthResult, 1)
	go func() { done <- check.Run(t.Context(), clk) }()
	var waited []time.Duration
	for {
		ctx, cancel := context.WithCancel(t.Context())
		armed := make(chan error, 1)
		go func() { armed <- clk.WaitNext(ctx, func(time.Time) bool { return true }) }()
		select {
		case res := <-done:
			cancel()
			return res, waited
		case err := <-armed:
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			next, _ := clk.Next()
			d := next.Sub(clk.Now())
			waited = append(waited, d)
			clk.Advance(d)
		}
	}
}

// run runs check as waits does and returns its result.
func run(t testing.TB, check resources.HealthCheck) resources.HealthResult {
	t.Helper()
	res, _ := waits(t, check)
	return res
}

// runFirst parses a health_checks list and runs its first check.
func runFirst(t testing.TB, src string) resources.HealthResult {
	t.Helper()
	return run(t, mustParse(t, src)[0])
}
