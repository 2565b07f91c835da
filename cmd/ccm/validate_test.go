package main_test

import (
	"os"
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

// TestValidateRefuses: validate, and run where a row names it, exits 2
// and reports each problem at its position, running nothing.
func TestValidateRefuses(t *testing.T) {
	for _, c := range []struct {
		name string
		src  string
		cmds []string
		// want are lines of the report, @ standing for the manifest's
		// directory.
		want []string
	}{
		{"every problem at once", broken, []string{"validate"}, []string{
			":4:18: command: template {{ nosuch('x') }}: unknown name nosuch",
			":7:17: unless: template {{ 1 + }}",
			":8:23: environment: template {{ lookup('x' }}",
			`require "exec#nowhere": no such resource`,
			"dependency cycle: exec#one -> exec#two -> exec#one",
			`:17:7: "/tmp/nul\x00byte" contains a NUL byte`,
			":19:18: content: template {{ Facts.x.( }}",
			`:23:9: unknown property "colour"`,
		}},
		{"a tab in the indentation", "- exec:\n    - a:\n\t    command: /bin/true\n", []string{"validate"}, []string{
			"manifest.yaml:3:1: invalid YAML: a tab in the indentation",
		}},
		{"exec's creates and cwd must be clean absolute paths", `
- exec:
    - marker:
        command: /bin/touch @/ran
        creates: @/sub/../done
        cwd: @/
`, []string{"validate", "run"}, []string{
			`:5:18: creates: "@/sub/../done" is not a clean path (no ., .., // or trailing /): write @/done`,
			`:6:14: cwd: "@/" is not a clean path (no ., .., // or trailing /): write @`,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			m := manifest(t, dir, c.src)
			for _, cmd := range c.cmds {
				t.Run(cmd, func(t *testing.T) {
					r := ccm(t, cmd, m)
					if r.code != 2 {
						t.Fatalf("exit %d, want 2\n%s%s", r.code, r.stdout, r.stderr)
					}
					for _, want := range c.want {
						if want = strings.ReplaceAll(want, "@", dir); !strings.Contains(r.stderr, want) {
							t.Errorf("%s does not report %q:\n%s", cmd, want, r.stderr)
						}
					}
					if left, _ := os.ReadDir(dir); len(left) != 1 {
						t.Fatalf("%s ran something: %v", cmd, left)
					}
				})
			}
		})
	}
}
