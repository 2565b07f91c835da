package main_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn/natstest"
	ccmrelease "github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
)

// rolloutHosts is how many watching ccm processes a rollout reaches
// ($CCM_BENCH_HOSTS, default 3), and rolloutRepeats how many rollouts are
// timed ($CCM_BENCH_PUSHES, default 30).
var (
	rolloutHosts   = envInt("CCM_BENCH_HOSTS", 3)
	rolloutRepeats = envInt("CCM_BENCH_PUSHES", 30)
)

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// benchHost is a watching ccm process whose file changes are reported on
// changed.
type benchHost struct {
	cmd     *exec.Cmd
	changed chan struct{}
}

func startBenchHost(b *testing.B, env []string, args ...string) *benchHost {
	b.Helper()
	h := &benchHost{cmd: exec.Command(bin, append([]string{"run", "--watch", "--json"}, args...)...), changed: make(chan struct{}, 100)}
	h.cmd.Env = env
	out := startPiped(b, h.cmd, h.cmd.StdoutPipe, syscall.SIGTERM)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var ev engine.Event
			if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Type == "file" && ev.Changed {
				h.changed <- struct{}{}
			}
		}
	}()
	return h
}

func (h *benchHost) wait(b *testing.B, what string) {
	b.Helper()
	select {
	case <-h.changed:
	case <-time.After(30 * time.Second):
		b.Fatalf("timed out waiting for %s", what)
	}
}

// rollout times publish, rolloutRepeats times, until every host reported
// its file changed, and reports the p50 and p99.
func rollout(b *testing.B, hosts []*benchHost, publish func(i int)) {
	var took []time.Duration
	for i := 1; i <= rolloutRepeats; i++ {
		start := time.Now()
		publish(i)
		for _, h := range hosts {
			h.wait(b, fmt.Sprintf("rollout %d", i))
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	pct := func(p float64) float64 {
		return float64(took[int(p*float64(len(took)-1)+0.5)].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(pct(1), "max-ms")
	b.ReportMetric(0, "ns/op")
}

// hostFile is a manifest giving each host (by its fact slot) its own file,
// with content from tmpl.
func hostFile(dir, content string) string {
	return fileAt(dir+"/{{ lookup('facts.slot') }}.motd", content)
}

// BenchmarkFleetRollout measures the time from publishing to every one of
// the watching hosts having converged it: a new bundle in a JetStream
// object store, and a new value of a key-value entry read with kvGet().
func BenchmarkFleetRollout(b *testing.B) {
	srv := natstest.Start(b, natstest.Options{})
	cfg := b.TempDir()
	env := append(os.Environ(), "NATS_URL="+srv.URL(), "NATS_CONTEXT=", "XDG_CONFIG_HOME="+cfg)
	b.Setenv("XDG_CONFIG_HOME", cfg)
	b.Setenv("NATS_CONTEXT", "")
	b.Setenv("NATS_URL", srv.URL())
	c, err := natsconn.Dial(natsconn.FromEnv(""), slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(c.Close)
	ctx := context.Background()
	push := func(loc, manifest string) {
		src := b.TempDir()
		if err := os.WriteFile(filepath.Join(src, "manifest.yaml"), []byte(manifest), 0o644); err != nil {
			b.Fatal(err)
		}
		var tgz bytes.Buffer
		if err := bundle.Pack(src, &tgz); err != nil {
			b.Fatal(err)
		}
		l, _ := source.Parse(loc, false)
		obs, err := ccmrelease.Open(ctx, c.JetStream(), l.Bucket, true)
		if err == nil {
			_, err = ccmrelease.Publish(ctx, obs, l.Key, ccmrelease.Bundle{Data: tgz.Bytes()}, 0)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	putKV := func(value string) {
		l, _ := source.Parse("kv://bench/motd", false)
		if _, err := source.PutKV(ctx, c, l, []byte(value)); err != nil {
			b.Fatal(err)
		}
	}
	start := func(b *testing.B, loc string) []*benchHost {
		var hosts []*benchHost
		for i := range rolloutHosts {
			hosts = append(hosts, startBenchHost(b, env, "--allow-unsigned", "--state-dir", b.TempDir(), "--fact", fmt.Sprintf("slot=h%d", i), loc))
		}
		for _, h := range hosts {
			h.wait(b, "the first convergence")
		}
		return hosts
	}

	b.Run("bundle", func(b *testing.B) {
		dir := b.TempDir()
		push("obj://bench/bundle.tgz", hostFile(dir, "revision 0"))
		hosts := start(b, "obj://bench/bundle.tgz")
		rollout(b, hosts, func(i int) { push("obj://bench/bundle.tgz", hostFile(dir, fmt.Sprintf("revision %d", i))) })
	})
	b.Run("kv", func(b *testing.B) {
		dir := b.TempDir()
		putKV("value 0")
		push("obj://bench/kv.tgz", hostFile(dir, "{{ kvGet('bench', 'motd') }}"))
		hosts := start(b, "obj://bench/kv.tgz")
		rollout(b, hosts, func(i int) { putKV(fmt.Sprintf("value %d", i)) })
	})
}
