package agent_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/agent"
	"github.com/spf13/pflag"
)

func TestParseUpstreamExample(t *testing.T) {
	c, err := agent.Parse("config.yaml", []byte(`
interval: 5m
health_check_interval: 1m
manifests:
  - /etc/choria/ccm/manifests/base.yaml
  - obj://ccm-manifests/app.tar.gz
  - https://config.example.com/manifests/web.tar.gz
log_level: info
nats_context: CCM
external_data_url: kv://ccm-data/common
cache_dir: /etc/choria/ccm/source
monitor_port: 9100
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Manifests) != 3 || c.ExternalDataURL != "kv://ccm-data/common" || time.Duration(c.HealthCheckInterval) != time.Minute ||
		c.MonitorPort != 9100 || c.NATSContext != "CCM" || c.CacheDir != "/etc/choria/ccm/source" {
		t.Fatalf("config = %+v", c)
	}
}

func TestFlagsStandForTheSettings(t *testing.T) {
	c, err := agent.Parse("c.yaml", []byte("manifests: [/m.yaml]\ninterval: 10m\nhealth_check_interval: 30s\nmonitor_port: 9100\nnats_context: CCM\nregistration: jetstream\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"watch": "true", "recheck": "10m0s", "health-interval": "30s", "log-level": "info", "context": "CCM",
		"register": "jetstream", "metrics-listen": "127.0.0.1:9100", "metrics-resources": "true"}
	if got := c.Flags(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("flags = %v, want %v", got, want)
	}
	c, err = agent.Parse("c.yaml", []byte("manifests: [/m.yaml]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"health-interval", "metrics-listen", "metrics-resources", "hiera", "cache-dir", "register", "context"} {
		if v, ok := c.Flags()[name]; ok {
			t.Errorf("an unset setting gives --%s=%q", name, v)
		}
	}
}

func TestDefaults(t *testing.T) {
	c, err := agent.Parse("c.yaml", []byte("manifests: [/m.yaml]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if time.Duration(c.Interval) != agent.DefaultInterval || c.LogLevel != "info" {
		t.Fatalf("defaults = %+v", c)
	}
}

// aliasBomb nests nine levels of ten aliases: a billion nodes from a few
// hundred bytes.
var aliasBomb = func() string {
	var b strings.Builder
	b.WriteString("manifests: [/m]\nl0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
	}
	return b.String()
}()

func TestBadConfigs(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"unknown key", "manifests: [/m]\nintervall: 5m\n", `c.yaml:2:1: unknown property "intervall" for the agent configuration; did you mean "interval"?`},
		{"short interval", "manifests: [/m]\ninterval: 10s\n", "c.yaml:2:11: interval: must be at least 30s"},
		{"bad duration", "manifests: [/m]\ninterval: soon\n", `c.yaml:2:11: interval: "soon" is not a duration`},
		{"not a list", "manifests: /m\n", `c.yaml:1:12: manifests: expected a list, got the string "/m"`},
		{"not a port", "manifests: [/m]\nmonitor_port: x\n", `c.yaml:2:15: monitor_port: expected an integer`},
		{"no manifests", "interval: 5m\n", "c.yaml:1:1: manifests: list at least one"},
		{"log level", "manifests: [/m]\nlog_level: loud\n", `c.yaml:2:12: log_level "loud"`},
		{"registration and log level, together", "manifests: [/m]\nlog_level: loud\nregistration: carrier-pigeon\n", "want debug, info, warn or error\nc.yaml:3:15: registration"},
		{"not a map", "- /m\n", "c.yaml:1:1: the agent configuration must be a map"},
		{"empty", "", "c.yaml: empty"},
		{"alias bomb", aliasBomb, "c.yaml:7:45: YAML aliases expand the document too far"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := agent.Parse("c.yaml", []byte(c.src))
			if !errors.Is(err, agent.ErrConfig) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, c.want)
			}
		})
	}
}

// TestLocate: the packaged unit's path, or the one upstream's docs give
// when only that exists.
func TestLocate(t *testing.T) {
	dir := t.TempDir()
	path, legacy := filepath.Join(dir, "agent.yaml"), filepath.Join(dir, "config.yaml")
	if got, old := agent.Locate(path, legacy); got != path || old {
		t.Fatalf("neither exists: %s %v, want %s", got, old, path)
	}
	if err := os.WriteFile(legacy, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, old := agent.Locate(path, legacy); got != legacy || !old {
		t.Fatalf("only the old one exists: %s %v, want it, noted", got, old)
	}
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, old := agent.Locate(path, legacy); got != path || old {
		t.Fatalf("both exist: %s %v, want %s", got, old, path)
	}
}

func TestApplyLetsTheCommandLineWin(t *testing.T) {
	c, err := agent.Parse("c.yaml", []byte("manifests: [/m.yaml]\ninterval: 10m\nlog_level: debug\nmonitor_port: 9100\n"))
	if err != nil {
		t.Fatal(err)
	}
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	recheck := fs.Duration("recheck", time.Minute, "")
	level := fs.String("log-level", "info", "")
	watch := fs.Bool("watch", false, "")
	if err := fs.Parse([]string{"--log-level", "warn"}); err != nil {
		t.Fatal(err)
	}
	unsupported, err := c.Apply(fs)
	if err != nil {
		t.Fatal(err)
	}
	if *recheck != 10*time.Minute || !*watch || *level != "warn" {
		t.Fatalf("recheck %v, watch %t, log-level %q: want the file's 10m and true, the command line's warn", *recheck, *watch, *level)
	}
	if fmt.Sprint(unsupported) != "[metrics-listen metrics-resources]" {
		t.Fatalf("unsupported = %v, want the metrics flags this flag set lacks", unsupported)
	}

	fs = pflag.NewFlagSet("run", pflag.ContinueOnError)
	fs.Int("recheck", 0, "")
	if _, err := c.Apply(fs); err == nil || !strings.HasPrefix(err.Error(), "recheck: ") {
		t.Fatalf("a value the flag refuses: %v, want an error naming the flag", err)
	}
}

// TestBounds: each setting's limits, on both sides.
func TestBounds(t *testing.T) {
	cases := []struct {
		set  string
		want string // "" when accepted
	}{
		{"interval: 30s", ""},
		{"interval: 29s", "interval: must be at least 30s"},
		{"interval: -5m", `interval: "-5m" is not a duration`},
		{"health_check_interval: -1s", `health_check_interval: "-1s" is not a duration`},
		{"monitor_port: 0", ""},
		{"monitor_port: 65535", ""},
		{"monitor_port: 65536", "monitor_port 65536: not a port"},
		{"monitor_port: -1", "monitor_port -1: not a port"},
		{"log_level: debug", ""},
		{"log_level: warn", ""},
		{"log_level: error", ""},
		{"log_level: INFO", `log_level "INFO": want debug, info, warn or error`},
		{"registration: nats", ""},
		{"registration: jetstream", ""},
		{"registration: JetStream", `registration "JetStream": want nats or jetstream`},
	}
	for _, c := range cases {
		t.Run(c.set, func(t *testing.T) {
			_, err := agent.Parse("c.yaml", []byte(c.set+"\nmanifests: [/m]\n"))
			if c.want == "" && err != nil || c.want != "" && (!errors.Is(err, agent.ErrConfig) || !strings.Contains(err.Error(), c.want)) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

func TestReadNamesTheFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "agent.yaml")
	if _, err := agent.Read(missing); !errors.Is(err, agent.ErrConfig) || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Fatalf("a missing file: %v", err)
	}
	good := filepath.Join(t.TempDir(), "agent.yaml")
	if err := os.WriteFile(good, []byte("manifests: [obj://ccm/site.tgz]\nmonitor_port: 9100\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := agent.Read(good)
	if err != nil || c.Manifests[0] != "obj://ccm/site.tgz" {
		t.Fatalf("read %+v, %v", c, err)
	}
	if f := c.Flags(); f["metrics-listen"] != "127.0.0.1:9100" || f["metrics-resources"] != "true" {
		t.Fatalf("flags %v", f)
	}
}
