package scaffold

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestPurgeRefusesSystemDirectories(t *testing.T) {
	for _, target := range []string{"/", "/etc", "/usr", "/var", "/var/lib", "/usr/local", "/home", "/tmp", "/opt", "/srv"} {
		t.Run(target, func(t *testing.T) {
			if got := resourcetest.BuildError(t, "scaffold", target, "source: /srv/templates/x\npurge: true", "/"); !strings.Contains(got, "give the scaffold a directory of its own") {
				t.Errorf("a purging scaffold of %s was refused for another reason: %s", target, got)
			}
		})
	}
	for _, target := range []string{"/etc/app", "/opt/app"} {
		t.Run(target, func(t *testing.T) {
			if _, err := resourcetest.Build(t, "scaffold", target, "source: /srv/templates/x\npurge: true", "/"); err != nil {
				t.Error(err)
			}
		})
	}
	if _, err := resourcetest.Build(t, "scaffold", "/etc", "source: /srv/templates/x", "/"); err != nil {
		t.Errorf("a scaffold of /etc without purge was refused: %v", err)
	}
}

func TestValidation(t *testing.T) {
	for _, tc := range []struct {
		desc, target, props, want string
	}{
		{"relative target", "etc/app", "source: /t", "clean absolute path"},
		{"unclean target", "/etc/../app", "source: /t", "clean absolute path, like /app"},
		{"no source", "/etc/app", "purge: false", "source is required"},
		{"url source", "/etc/app", "source: https://example.com/t.tgz", "URL sources are not supported"},
		{"target inside source", "/srv/t/out", "source: /srv/t", "is inside the source"},
		{"purged source inside target", "/srv/app", "source: /srv/app/templates\npurge: true", "purge would delete the templates"},
		{"bad engine", "/etc/app", "source: /t\nengine: erb", `engine must be "go" or "jet"`},
		{"one delimiter", "/etc/app", "source: /t\nleft_delimiter: '<<'", "must be set together"},
		{"bad ensure", "/etc/app", "source: /t\nensure: latest", `ensure must be "present" or "absent"`},
		{"unknown provider", "/etc/app", "source: /t\nprovider: cookiecutter", `unknown provider "cookiecutter"`},
		{"empty post command", "/etc/app", "source: /t\npost:\n  - '*.sh': ''", `the command for "*.sh" cannot be empty`},
		{"bad post glob", "/etc/app", "source: /t\npost:\n  - '[': 'true'", "bad glob"},
		{"unbalanced quote", "/etc/app", "source: /t\npost:\n  - '*': \"echo 'x\"", "Unterminated"},
		{"post not a list", "/etc/app", "source: /t\npost: {'*': 'true'}", "expected a list"},
		{"validate without %s", "/etc/app", "source: /t\nvalidate:\n  - '*.conf': '/usr/sbin/nginx -t'", "must name the new content as %s"},
		{"bad validate glob", "/etc/app", "source: /t\nvalidate:\n  - '[': '/bin/sh -n %s'", "bad glob"},
		{"unknown property", "/etc/app", "source: /t\npurg: true", `did you mean "purge"`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got := resourcetest.BuildError(t, "scaffold", tc.target, tc.props, "/manifests")
			if !strings.Contains(got, tc.want) {
				t.Errorf("got %s, want an error containing %q", got, tc.want)
			}
			if !strings.HasPrefix(got, "test.yaml:") {
				t.Errorf("the error has no position: %s", got)
			}
		})
	}
}

func TestEveryProblemIsReportedAtOnce(t *testing.T) {
	got := resourcetest.BuildError(t, "scaffold", "/etc", "purg: true\npurge: true\nengine: erb", "/")
	for _, want := range []string{"unknown property", "source is required", "engine must be", "a directory of its own"} {
		if !strings.Contains(got, want) {
			t.Errorf("the errors do not say %q: %s", want, got)
		}
	}
}
