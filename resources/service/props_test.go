package service

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestValidation(t *testing.T) {
	resourcetest.Rejects(t, "service", []resourcetest.Rejected{
		{Case: "shell metacharacters in the name", Name: "nginx;reboot", Want: `test.yaml:1:1: service#nginx;reboot: invalid service name`},
		{Case: "a path as the name", Name: "/etc/init.d/nginx", Want: "invalid service name"},
		{Case: "whitespace in the name", Name: "my service", Want: "invalid service name"},
		{Case: "unknown ensure", Name: "nginx", Props: "ensure: restarted", Want: `ensure: must be running or stopped, got "restarted"`},
		{Case: "enable not a boolean", Name: "nginx", Props: "enable: sometimes", Want: "enable: expected true or false"},
		{Case: "unknown property", Name: "nginx", Props: "enabled: true", Want: `unknown property "enabled" for service#nginx; did you mean "enable"?`},
		{Case: "unknown provider", Name: "nginx", Props: "provider: upstart", Want: `provider: unknown provider "upstart"; valid providers: systemd`},
	})
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
