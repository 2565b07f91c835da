package health_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestParseDefaults(t *testing.T) {
	tests := []struct {
		name, src    string
		wantName     string
		wantInterval time.Duration
	}{
		{"a plugin is named after its program", "- command: /usr/lib64/nagios/plugins/check_http -H localhost -p 80", "check_http", 0},
		{"a written name wins", "- {name: web_up, command: /bin/true}", "web_up", 0},
		{"a multi-line command is trimmed (upstream's monitoring doc)", "- command: |\n    /bin/true --expect \"Acme Inc\"\n", "true", 0},
		{"goss rules are named goss", "- goss_rules: {file: {/etc/hosts: {exists: true}}}", "goss", 0},
		{"a check may have its own interval", "- {command: /bin/true, interval: 30s}", "true", 30 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checks := mustParse(t, tt.src)
			if len(checks) != 1 || checks[0].Name() != tt.wantName || checks[0].Interval() != tt.wantInterval {
				t.Fatalf("parsed %d checks, first named %q every %v; want %q every %v", len(checks), checks[0].Name(), checks[0].Interval(), tt.wantName, tt.wantInterval)
			}
		})
	}
}

func TestParseResolvesTemplates(t *testing.T) {
	dir := t.TempDir()
	p := script(t, dir, "check_port", `echo "port $2"`)
	checks, err := parse(t, "- command: "+p+" -p {{ port }}", resourcetest.Vars{"port": 8080})
	if err != nil {
		t.Fatal(err)
	}
	if res := run(t, checks[0]); res.Output != "port 8080" {
		t.Errorf("output %q, want the template resolved", res.Output)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"not a list", "{command: /bin/true}", "m.yaml:1:1: service#web: health_checks: expected a list of checks"},
		{"neither command nor rules", "- {name: x}", "set command (a Nagios plugin) or goss_rules"},
		{"both command and rules", "- {command: /bin/true, goss_rules: {file: {/x: {exists: true}}}}", "set command or goss_rules, not both"},
		{"format disagrees", "- {command: /bin/true, format: goss}", "format goss needs goss_rules"},
		{"unknown format", "- {command: /bin/true, format: json}", `format "json" is not one of nagios, goss`},
		{"no tries", "- {command: /bin/true, tries: 0}", "tries: 0 must be at least 1"},
		{"tries not a number", "- {command: /bin/true, tries: five}", `tries: expected an integer, got the string "five"`},
		{"bad duration", "- {command: /bin/true, timeout: 10}", `timeout: "10" is not a positive duration`},
		{"misspelt property", "- {command: /bin/true, try_slep: 1s}", `did you mean "try_sleep"?`},
		{"unbalanced quote", "- {command: '/bin/true \"oops'}", "command: cannot be split into words"},
		{"misspelt goss kind", "- goss_rules: {servce: {httpd: {running: true}}}", `unknown rule kind "servce"`},
		{"goss refuses an attribute", "- goss_rules: {service: {httpd: {runing: true}}}", "goss_rules:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(t, tt.src, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to contain %q", err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "m.yaml:1:") {
				t.Errorf("error %q carries no position", err)
			}
		})
	}
}

func TestParseReportsEveryBadCheck(t *testing.T) {
	_, err := parse(t, "- {tries: 0, command: /bin/true}\n- {command: /bin/true}\n- {name: x}", nil)
	var list resources.ErrorList
	if !errors.As(err, &list) || len(list) != 2 {
		t.Fatalf("error %v, want two problems", err)
	}
	if !strings.Contains(list[0].Error(), "item 1") || !strings.Contains(list[1].Error(), "item 3") {
		t.Errorf("errors %v do not name items 1 and 3", list)
	}
}
