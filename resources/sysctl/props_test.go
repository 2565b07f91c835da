package sysctl

import (
	"testing"
	"time"
)

// TestNames: which names are parameters, the file each reads under
// /proc/sys (a slash standing for a dot, as sysctl(8) writes a VLAN
// interface) and the drop-in that persists it.
func TestNames(t *testing.T) {
	for _, c := range []struct {
		key          string
		valid        bool
		proc, dropIn string
	}{
		{key: "net.ipv4.ip_forward", valid: true, proc: "/proc/sys/net/ipv4/ip_forward", dropIn: "/etc/sysctl.d/zz-ccm-net.ipv4.ip_forward.conf"},
		{key: "net.ipv4.conf.eth0/100.rp_filter", valid: true, proc: "/proc/sys/net/ipv4/conf/eth0.100/rp_filter", dropIn: "/etc/sysctl.d/zz-ccm-net.ipv4.conf.eth0.100.rp_filter.conf"},
		{key: "kernel.sched_domain.cpu0@x:y+z-w", valid: true, proc: "/proc/sys/kernel/sched_domain/cpu0@x:y+z-w", dropIn: "/etc/sysctl.d/zz-ccm-kernel.sched_domain.cpu0@x:y+z-w.conf"},
		{key: "vm", valid: true, proc: "/proc/sys/vm", dropIn: "/etc/sysctl.d/zz-ccm-vm.conf"},
		{key: "net..ipv4"},
		{key: ".net"},
		{key: "net."},
		{key: "net/"},
		{key: "a//b"},
		{key: "../etc"},
		{key: "net.ipv4 x"},
		{key: ""},
	} {
		if got := validKey.MatchString(c.key); got != c.valid {
			t.Errorf("valid(%q) = %v, want %v", c.key, got, c.valid)
		}
		if !c.valid {
			continue
		}
		if got := procPath(c.key); got != c.proc {
			t.Errorf("procPath(%q) = %q, want %q", c.key, got, c.proc)
		}
		if got := dropIn(c.key); got != c.dropIn {
			t.Errorf("dropIn(%q) = %q, want %q", c.key, got, c.dropIn)
		}
	}
}

// TestPersistedValue: the note on a drop-in that differs says what it
// sets, its words normalized, or that it does not set the key.
func TestPersistedValue(t *testing.T) {
	for _, c := range []struct{ content, want string }{
		{"net.ipv4.ip_forward = 0\n", "it sets 0"},
		{"# comment\nnet.ipv4.ip_forward=1\n", "it sets 1"},
		{"  net.ipv4.ip_forward\t=  40000 \t 50000 \n", "it sets 40000 50000"},
		{"net.ipv4.ip_forwarding = 1\n", "it does not set net.ipv4.ip_forward"},
		{"net.ipv4.ip_forward\n", "it does not set net.ipv4.ip_forward"},
		{"", "it does not set net.ipv4.ip_forward"},
		{"net.ipv4.ip_forward = 2\nnet.ipv4.ip_forward = 3\n", "it sets 2"},
	} {
		if got := persistedValue([]byte(c.content), "net.ipv4.ip_forward"); got != c.want {
			t.Errorf("persistedValue(%q) = %q, want %q", c.content, got, c.want)
		}
	}
}

func TestNoopMessage(t *testing.T) {
	s := &sysctl{key: "vm.swappiness", value: "10", persist: dropIn("vm.swappiness")}
	for _, c := range []struct {
		value, persist bool
		want           string
	}{
		{true, true, "Would have set vm.swappiness to 10 and written /etc/sysctl.d/zz-ccm-vm.swappiness.conf"},
		{true, false, "Would have set vm.swappiness to 10"},
		{false, true, "Would have written /etc/sysctl.d/zz-ccm-vm.swappiness.conf"},
	} {
		if got := s.noopMessage(c.value, c.persist); got != c.want {
			t.Errorf("noopMessage(%v, %v) = %q, want %q", c.value, c.persist, got, c.want)
		}
	}
}

// TestWatch: the parameter is polled at its interval; the drop-in, only
// with persist, is watched.
func TestWatch(t *testing.T) {
	s := &sysctl{key: "vm.swappiness", poll: time.Second}
	if w := s.Watch(); w.Poll != time.Second || len(w.Paths) != 0 {
		t.Errorf("watch %+v", w)
	}
	s.persist = dropIn(s.key)
	if w := s.Watch(); len(w.Paths) != 1 || w.Paths[0] != s.persist {
		t.Errorf("watch with persist %+v", w)
	}
}
