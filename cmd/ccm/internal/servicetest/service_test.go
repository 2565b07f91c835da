// Package servicetest runs upstream's `ccm ensure service` and
// `ccm status service` examples with the real ccm binary against a
// private systemd (systemdtest), in a test binary of its own so the cmd
// tests do not hold the host's systemd harness lock.
package servicetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/cmd/ccm/internal/ccmbuild"
	"github.com/reactive-ccm/ccm/watchers/systemd/systemdtest"
)

var bin string

func TestMain(m *testing.M) {
	var err error
	bin, err = ccmbuild.Build("ccm-service-e2e-", false)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := systemdtest.Main(m)
	os.RemoveAll(filepath.Dir(bin))
	os.Exit(code)
}

func ccm(t *testing.T, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return out.String() + errb.String(), ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), 0
}

func TestServiceDocsExamples(t *testing.T) {
	sd := systemdtest.Require(t)
	const unit = "ccm-e2e.service"
	sd.Install(t, unit, "[Service]\nExecStart=/bin/sleep infinity\n[Install]\nWantedBy=multi-user.target\n")
	dir := t.TempDir()
	session := []string{"CCM_SESSION_STORE=" + filepath.Join(dir, "session")}
	if out, code := ccm(t, nil, "session", "new", "--directory", filepath.Join(dir, "session")); code != 0 {
		t.Fatal(out)
	}
	t.Run("ccm ensure service NAME running --enable", func(t *testing.T) {
		out, code := ccm(t, session, "ensure", "service", "ccm-e2e", "running", "--enable")
		if code != 0 || !strings.HasPrefix(out, "WARN  service#ccm-e2e changed ensure=running") || !strings.HasSuffix(out, "provider=systemd\n") {
			t.Fatalf("exit %d: %s", code, out)
		}
		if active, _ := sd.Systemctl(t.Context(), "is-active", unit); strings.TrimSpace(active) != "active" {
			t.Fatalf("not started: %s", active)
		}
	})
	t.Run("ccm status service NAME", func(t *testing.T) {
		out, code := ccm(t, nil, "status", "service", "ccm-e2e", "--json")
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || got["running"] != true || got["enabled"] != true || got["provider"] != "systemd" {
			t.Fatalf("exit %d: %s", code, out)
		}
	})
	t.Run("--subscribe restarts after a change in the session", func(t *testing.T) {
		before, err := sd.MainPID(t.Context(), unit)
		if err != nil {
			t.Fatal(err)
		}
		conf := filepath.Join(dir, "app.conf")
		if out, code := ccm(t, session, "ensure", "file", conf, "--content", "v2"); code != 0 {
			t.Fatal(out)
		}
		out, code := ccm(t, session, "ensure", "service", "ccm-e2e", "--subscribe", "file#"+conf)
		if code != 0 || !strings.HasPrefix(out, "WARN  service#ccm-e2e refreshed") {
			t.Fatalf("exit %d: %s", code, out)
		}
		if after, err := sd.MainPID(t.Context(), unit); err != nil || after == before {
			t.Fatalf("not restarted: pid %d then %d (%v)", before, after, err)
		}
	})
	t.Run("stopped --disable", func(t *testing.T) {
		out, code := ccm(t, nil, "ensure", "svc", "ccm-e2e", "stopped", "--disable")
		if code != 0 || !strings.HasPrefix(out, "WARN  service#ccm-e2e changed ensure=stopped") {
			t.Fatalf("exit %d: %s", code, out)
		}
		if enabled, _ := sd.Systemctl(t.Context(), "is-enabled", unit); strings.TrimSpace(enabled) != "disabled" {
			t.Fatalf("not disabled: %s", enabled)
		}
	})
}
