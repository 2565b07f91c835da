package pkg_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"

	_ "github.com/reactive-ccm/ccm/resources/pkg"
)

func TestValidPackagesBuild(t *testing.T) {
	tests := []struct {
		name, pkg, props, wantEnsure string
	}{
		{"present", "nginx", "ensure: present", "present"},
		{"absent", "httpd", "ensure: absent", "absent"},
		{"latest", "vim-enhanced", "ensure: latest", "latest"},
		{"a Debian version with an epoch", "vim", "ensure: 2:9.0.1378-2", "2:9.0.1378-2"},
		{"an rpm version", "kernel-devel", "ensure: 3.10.0-1160.el7", "3.10.0-1160.el7"},
		{"a tilde version", "foo", "ensure: 1.0~rc1-1", "1.0~rc1-1"},
		{"a YAML float stays as written", "zsh", "ensure: 5.9", "5.9"},
		{"a trailing zero is kept", "zsh", "ensure: 1.10", "1.10"},
		{"dots in the name", "python3.11", "ensure: present", "present"},
		{"plus signs in the name", "g++", "ensure: present", "present"},
		{"an architecture qualifier", "libc6:i386", "ensure: present", "present"},
		{"underscores and tildes", "lib_name~x", "ensure: present", "present"},
		{"an explicit provider", "zsh", "{ensure: present, provider: dnf}", "present"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inst := resourcetest.MustBuild(t, "package", tt.pkg, tt.props, t.TempDir())
			if inst.Ensure != tt.wantEnsure {
				t.Errorf("Ensure = %q, want %q", inst.Ensure, tt.wantEnsure)
			}
		})
	}
}

func TestInvalidPackagesAreRejected(t *testing.T) {
	tests := []struct {
		name, pkg, props string
		want             []string
	}{
		{"a command separator in the name", "nginx; rm -rf /", "ensure: present", []string{"test.yaml:1:1", "package#nginx; rm -rf /", "may hold only"}},
		{"a pipe in the name", "nginx|cat", "ensure: present", []string{"may hold only"}},
		{"command substitution in the name", "nginx$(whoami)", "ensure: present", []string{"may hold only"}},
		{"a backtick in the name", "nginx`id`", "ensure: present", []string{"may hold only"}},
		{"quotes in the name", `nginx"x'`, "ensure: present", []string{"may hold only"}},
		{"a glob in the name", "nginx*", "ensure: present", []string{"may hold only"}},
		{"a space in the name", "nginx test", "ensure: present", []string{"may hold only"}},
		{"a slash in the name", "../nginx", "ensure: present", []string{"may hold only"}},
		{"an option for a name", "--allow-unauthenticated", "ensure: present", []string{"must start with a letter or digit"}},
		{"a newline in the name", "nginx\nwhoami", "ensure: present", []string{"may hold only"}},
		{"a command separator in the version", "nginx", `ensure: "1.2.3; rm -rf /"`, []string{"test.yaml:1:9", `ensure "1.2.3; rm -rf /" is not present, absent, latest or a version`}},
		{"command substitution in the version", "nginx", `ensure: "1.2.3$(whoami)"`, []string{"is not present, absent, latest or a version"}},
		{"an option for a version", "nginx", `ensure: "-1"`, []string{"must start with a letter or digit"}},
		{"no ensure", "nginx", "{}", []string{"ensure is required: present, absent, latest or a version"}},
		{"an empty ensure", "nginx", `ensure: ""`, []string{"is not present, absent, latest or a version"}},
		{"ensure as a list", "nginx", "ensure: [present]", []string{"ensure: expected a string, got a list"}},
		{"an unknown provider", "nginx", "{ensure: present, provider: yum}", []string{"test.yaml:1:29", `unknown provider "yum"; valid providers: apt, dnf`}},
		{"an unknown property", "nginx", "{ensure: present, version: 1.0}", []string{`unknown property "version"`}},
		{"every problem at once", "bad name", "{ensure: present, provider: yum}", []string{"may hold only", "unknown provider"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resourcetest.ReportsAll(t, "package", tt.pkg, tt.props, tt.want...)
		})
	}
}
