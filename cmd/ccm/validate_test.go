package main_test

import (
	"strings"
	"testing"
)

// broken has one of every problem validate finds before running,
// including templates only resolved at run time.
const broken = `
- exec:
    - unknown-function:
        command: "/bin/echo {{ nosuch('x') }}"
    - bad-guard:
        command: /bin/true
        unless: "{{ 1 + }}"
        environment: ["A={{ lookup('x' }}"]
        require: [exec#nowhere]
    - one:
        command: /bin/true
        require: [exec#two]
    - two:
        command: /bin/true
        require: [exec#one]
- file:
    - "/tmp/nul\0byte":
        ensure: present
        content: "{{ Facts.x.( }}"
        owner: root
        group: root
        mode: "0644"
        colour: red
`

func TestValidateReportsEveryProblemAtOnce(t *testing.T) {
	m := manifest(t, t.TempDir(), broken)
	r := ccm(t, "validate", m)
	if r.code != 2 {
		t.Fatalf("exit %d, want 2\n%s", r.code, r.stdout)
	}
	for _, want := range []string{
		":4:18: command: template {{ nosuch('x') }}: unknown name nosuch",
		":7:17: unless: template {{ 1 + }}",
		":8:23: environment: template {{ lookup('x' }}",
		`require "exec#nowhere": no such resource`,
		"dependency cycle: exec#one -> exec#two -> exec#one",
		`:17:7: "/tmp/nul\x00byte" contains a NUL byte`,
		":19:18: content: template {{ Facts.x.( }}",
		`:23:9: unknown property "colour"`,
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("validate does not report %q:\n%s", want, r.stderr)
		}
	}
}

func TestValidatePointsAtATabInTheIndentation(t *testing.T) {
	m := manifest(t, t.TempDir(), "- exec:\n    - a:\n\t    command: /bin/true\n")
	r := ccm(t, "validate", m)
	if r.code != 2 || !strings.Contains(r.stderr, "manifest.yaml:3:1: invalid YAML: a tab in the indentation") {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
}
