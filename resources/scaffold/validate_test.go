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
	resourcetest.Rejects(t, "scaffold", []resourcetest.Rejected{
		{Case: "relative target", Name: "etc/app", Props: "source: /t", Want: "clean absolute path"},
		{Case: "unclean target", Name: "/etc/../app", Props: "source: /t", Want: "clean absolute path, like /app"},
		{Case: "no source", Name: "/etc/app", Props: "purge: false", Want: "source is required"},
		{Case: "url source", Name: "/etc/app", Props: "source: https://example.com/t.tgz", Want: "URL sources are not supported"},
		{Case: "target inside source", Name: "/srv/t/out", Props: "source: /srv/t", Want: "is inside the source"},
		{Case: "purged source inside target", Name: "/srv/app", Props: "source: /srv/app/templates\npurge: true", Want: "purge would delete the templates"},
		{Case: "bad engine", Name: "/etc/app", Props: "source: /t\nengine: erb", Want: `engine must be "go" or "jet"`},
		{Case: "one delimiter", Name: "/etc/app", Props: "source: /t\nleft_delimiter: '<<'", Want: "must be set together"},
		{Case: "bad ensure", Name: "/etc/app", Props: "source: /t\nensure: latest", Want: `ensure must be "present" or "absent"`},
		{Case: "unknown provider", Name: "/etc/app", Props: "source: /t\nprovider: cookiecutter", Want: `unknown provider "cookiecutter"`},
		{Case: "empty post command", Name: "/etc/app", Props: "source: /t\npost:\n  - '*.sh': ''", Want: `the command for "*.sh" cannot be empty`},
		{Case: "bad post glob", Name: "/etc/app", Props: "source: /t\npost:\n  - '[': 'true'", Want: "bad glob"},
		{Case: "unbalanced quote", Name: "/etc/app", Props: "source: /t\npost:\n  - '*': \"echo 'x\"", Want: "Unterminated"},
		{Case: "post not a list", Name: "/etc/app", Props: "source: /t\npost: {'*': 'true'}", Want: "expected a list"},
		{Case: "validate without %s", Name: "/etc/app", Props: "source: /t\nvalidate:\n  - '*.conf': '/usr/sbin/nginx -t'", Want: "must name the new content as %s"},
		{Case: "bad validate glob", Name: "/etc/app", Props: "source: /t\nvalidate:\n  - '[': '/bin/sh -n %s'", Want: "bad glob"},
		{Case: "unknown property", Name: "/etc/app", Props: "source: /t\npurg: true", Want: `did you mean "purge"`},
	})
}

func TestEveryProblemIsReportedAtOnce(t *testing.T) {
	resourcetest.ReportsAll(t, "scaffold", "/etc", "purg: true\npurge: true\nengine: erb",
		"unknown property", "source is required", "engine must be", "a directory of its own")
}
