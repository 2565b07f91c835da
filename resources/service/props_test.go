package service

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestValidation(t *testing.T) {
	tests := []struct {
		name, svc, props, wantErr string
	}{
		{"shell metacharacters in the name", "nginx;reboot", "", `test.yaml:1:1: service#nginx;reboot: invalid service name`},
		{"a path as the name", "/etc/init.d/nginx", "", "invalid service name"},
		{"whitespace in the name", "my service", "", "invalid service name"},
		{"unknown ensure", "nginx", "ensure: restarted", `ensure: must be running or stopped, got "restarted"`},
		{"enable not a boolean", "nginx", "enable: sometimes", "enable: expected true or false"},
		{"unknown property", "nginx", "enabled: true", `unknown property "enabled" for service#nginx; did you mean "enable"?`},
		{"unknown provider", "nginx", "provider: upstart", `provider: unknown provider "upstart"; valid providers: systemd`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resourcetest.BuildError(t, "service", tt.svc, tt.props, t.TempDir()); !strings.Contains(got, tt.wantErr) {
				t.Fatalf("error = %s, want one containing %q", got, tt.wantErr)
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	t.Setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent")
	inst := resourcetest.MustBuild(t, "service", "nginx", "", t.TempDir())
	if inst.Ensure != running || inst.Provider != "systemd" {
		t.Fatalf("ensure %q provider %q, want running and systemd", inst.Ensure, inst.Provider)
	}
	svc := inst.Resource.(*Service)
	if svc.enable != nil || svc.unit != "nginx.service" {
		t.Fatalf("enable %v unit %q, want unset and nginx.service", svc.enable, svc.unit)
	}
	if w := svc.Watch(); len(w.Units) != 1 || w.Units[0] != "nginx.service" {
		t.Fatalf("Watch() = %+v, want the unit", w)
	}
}

func TestUnitName(t *testing.T) {
	tests := []struct{ name, want string }{
		{"nginx", "nginx.service"},
		{"nginx.service", "nginx.service"},
		{"docker.socket", "docker.socket"},
		{"apt-daily.timer", "apt-daily.timer"},
		{"php8.2-fpm", "php8.2-fpm.service"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unitName(tt.name); got != tt.want {
				t.Fatalf("unitName(%q) = %q, want %q", tt.name, got, tt.want)
			}
		})
	}
}

func TestDecide(t *testing.T) {
	tests := []struct {
		name             string
		ensure           string
		running, refresh bool
		want             action
	}{
		{"running and wanted", running, true, false, none},
		{"stopped, want running", running, false, false, start},
		{"running, want stopped", stopped, true, false, stop},
		{"stopped and wanted", stopped, false, false, none},
		{"refresh of a running service restarts it", running, true, true, restart},
		{"refresh of a stopped service starts it, once", running, false, true, start},
		{"refresh with ensure stopped is ignored", stopped, false, true, none},
		{"refresh with ensure stopped still stops a running service", stopped, true, true, stop},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := decide(tt.ensure, tt.running, tt.refresh); got != tt.want {
				t.Fatalf("decide(%s, running=%v, refresh=%v) = %v, want %v", tt.ensure, tt.running, tt.refresh, got, tt.want)
			}
		})
	}
}

func TestUnusableProvider(t *testing.T) {
	t.Setenv("DBUS_SYSTEM_BUS_ADDRESS", "")
	if systemdUsable() == nil {
		t.Skip("systemd runs on this host")
	}
	inst := resourcetest.MustBuild(t, "service", "nginx", "", t.TempDir())
	if _, err := inst.Resource.Check(t.Context()); err == nil || !strings.Contains(err.Error(), "no suitable provider") {
		t.Fatalf("Check() error = %v, want the provider's reason", err)
	}
}
