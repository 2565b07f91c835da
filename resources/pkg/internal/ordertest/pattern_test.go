package ordertest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/graph"
	_ "github.com/reactive-ccm/ccm/resources/all"
	"github.com/reactive-ccm/ccm/resources/pkg/internal/debfixture"
	sdwatch "github.com/reactive-ccm/ccm/watchers/systemd"
	"github.com/reactive-ccm/ccm/watchers/systemd/systemdtest"
)

func TestMain(m *testing.M) { os.Exit(systemdtest.Main(m)) }

const (
	fixApp  = debfixture.Prefix + "app"
	unitApp = "ccm-order-app.service"
)

// stack is the package, its configuration and its service: the
// configuration's directory exists only once the package is installed, and
// the service starts only once the configuration exists.
type stack struct {
	sd       *systemdtest.Systemd
	conf     string
	manifest string
}

func newStack(t *testing.T) *stack {
	t.Helper()
	sd := systemdtest.Require(t)
	repo := debfixture.New(t, debfixture.Package{Name: fixApp, Version: "1.0-1", Conffile: true})
	s := &stack{sd: sd, conf: filepath.Join(filepath.Dir(repo.Conffile(fixApp)), "app.conf")}
	unit := fmt.Sprintf("[Service]\nExecStartPre=/usr/bin/test -f %s\nExecStart=/bin/sleep infinity\n", s.conf)
	sd.Install(t, unitApp, unit)
	s.manifest = fmt.Sprintf(`
- package:
    - %s: {ensure: present}
- file:
    - %s:
        ensure: present
        content: "listen 8080\n"
        owner: root
        group: root
        mode: "0644"
- service:
    - %s: {ensure: running}
`, fixApp, s.conf, strings.TrimSuffix(unitApp, ".service"))
	return s
}

func (s *stack) systemctl(t *testing.T, args ...string) string {
	t.Helper()
	out, err := s.sd.Systemctl(t.Context(), args...)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(out)
}

// reset takes the host back to before the stack: service stopped, no
// configuration, package purged.
func (s *stack) reset(t *testing.T) {
	t.Helper()
	s.systemctl(t, "stop", unitApp)
	if err := os.Remove(s.conf); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	debfixture.Purge(t)
}

func (s *stack) active(t *testing.T) bool {
	return s.systemctl(t, "show", "--property=ActiveState", "--value", unitApp) == "active"
}

func TestPackageConfigServiceInWrittenOrder(t *testing.T) {
	s := newStack(t)
	t.Run("one-shot", func(t *testing.T) {
		s.reset(t)
		path := filepath.Join(t.TempDir(), "manifest.yaml")
		if err := os.WriteFile(path, []byte(s.manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		g, err := graph.Load([]string{path}, graph.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var failures []string
		events := func(ev *engine.Event) {
			if ev.Failed || ev.Skipped {
				failures = append(failures, ev.ID()+": "+strings.Join(ev.Error, "; "))
			}
		}
		sum, err := engine.New(g, engine.Options{Events: events}).Run(t.Context())
		if err != nil || !sum.OK() || sum.Changed != 3 {
			t.Fatalf("summary %+v, %v; failures %q", sum, err, failures)
		}
		if !s.active(t) {
			t.Fatal("the service is not running")
		}
	})
	t.Run("watch", func(t *testing.T) {
		s.reset(t)
		hub := sdwatch.Default()
		w := enginetest.Start(t, s.manifest, enginetest.Options{Timeout: time.Minute,
			Engine: engine.Options{Watchers: engine.Watchers{Units: hub.Watch, Ready: hub.Ready}}})
		for _, id := range []string{"package#" + fixApp, "file#" + s.conf, "service#" + strings.TrimSuffix(unitApp, ".service")} {
			ev := w.Next(t, "the first run of "+id, func(ev *engine.Event) bool { return ev.ID() == id })
			if !ev.Changed || ev.Failed {
				t.Fatalf("%s: want changed at start-up, got %+v", id, ev)
			}
		}
		if !s.active(t) {
			t.Fatal("the service is not running")
		}
		w.Settle(t)
		s.systemctl(t, "stop", unitApp)
		if ev := w.Changed(t, "service#"+strings.TrimSuffix(unitApp, ".service")); ev.Trigger != engine.TriggerDrift {
			t.Fatalf("a stopped service is started again at once, as a lone repair: %+v", ev)
		}
	})
}
