package facts

import (
	"maps"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// TestDebianWithoutLSB: ccm reads the platform from the files itself
// only where gopsutil would run lsb_release and then settle on
// /etc/debian_version; anywhere else gopsutil decides. A release file
// counts, as gopsutil has it, with more than 4 bytes.
func TestDebianWithoutLSB(t *testing.T) {
	debian := map[string]string{"usr/bin/lsb_release": "#!/bin/sh\n", "etc/debian_version": "12.4\nextra\n"}
	with := func(extra map[string]string, drop ...string) map[string]string {
		out := maps.Clone(debian)
		maps.Copy(out, extra)
		for _, d := range drop {
			delete(out, d)
		}
		return out
	}
	for _, c := range []struct {
		name    string
		files   map[string]string
		hostEtc string
		want    bool
		// platform is the name read when want is set.
		platform string
	}{
		{"Debian with lsb_release and no lsb-release", debian, "", true, "debian"},
		{"Raspberry Pi OS", with(map[string]string{"usr/bin/raspi-config": "#!/bin/sh\n"}), "", true, "raspbian"},
		{"a raspi-config of 4 bytes is not one", with(map[string]string{"usr/bin/raspi-config": "#!\n\n"}), "", true, "debian"},
		{"an /etc/lsb-release answers", with(map[string]string{"etc/lsb-release": ""}), "", false, ""},
		{"no lsb_release to run", with(nil, "usr/bin/lsb_release"), "", false, ""},
		{"no debian_version", with(nil, "etc/debian_version"), "", false, ""},
		{"a debian_version of 4 bytes", with(map[string]string{"etc/debian_version": "12\n\n"}), "", false, ""},
		{"an Oracle release first", with(map[string]string{"etc/oracle-release": "Oracle Linux 9\n"}), "", false, ""},
		{"an enterprise release first", with(map[string]string{"etc/enterprise-release": "Enterprise 5\n"}), "", false, ""},
		{"a Slackware version first", with(map[string]string{"etc/slackware-version": "Slackware 15\n"}), "", false, ""},
		{"an empty Slackware version is none", with(map[string]string{"etc/slackware-version": ""}), "", true, "debian"},
		{"HOST_ETC names another /etc", debian, "/host/etc", false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("HOST_ETC", c.hostEtc)
			root := t.TempDir()
			resourcetest.WriteTree(t, root, c.files)
			if got := debianWithoutLSB(root); got != c.want {
				t.Fatalf("debianWithoutLSB = %t, want %t", got, c.want)
			}
			if !c.want {
				return
			}
			name, family, version, err := platform(t.Context(), root)
			if err != nil || name != c.platform || family != "debian" || version != "12.4" {
				t.Fatalf("platform = %q, %q, %q, %v; want %q, debian, 12.4 (the first line)", name, family, version, err, c.platform)
			}
		})
	}
}

func TestHasContentIsARegularFileOfMoreThan4Bytes(t *testing.T) {
	dir := t.TempDir()
	resourcetest.WriteTree(t, dir, map[string]string{"five": "12345", "four": "1234", "d/x": "123456"})
	for name, want := range map[string]bool{"five": true, "four": false, "d": false, "none": false} {
		if got := hasContent(filepath.Join(dir, name)); got != want {
			t.Errorf("hasContent(%s) = %t, want %t", name, got, want)
		}
	}
	if got := firstLine(filepath.Join(dir, "none")); got != "" {
		t.Errorf("firstLine of a missing file = %q", got)
	}
}
