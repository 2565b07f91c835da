package exec_test

import (
	"testing"

	_ "github.com/reactive-ccm/ccm/resources/exec"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestValidationMessages(t *testing.T) {
	tests := []struct {
		name, exec, props, want string
	}{
		{"unbalanced quote in the name", "/bin/echo 'hi", "",
			"test.yaml:1:1: exec#/bin/echo 'hi: the name is the command, and it cannot be split into words: Unterminated single-quoted string"},
		{"unbalanced quote in command", "greet", "command: /bin/echo \"hi\n",
			"test.yaml:1:10: command: cannot be split into words: Unterminated double-quoted string"},
		{"trailing backslash in onlyif", "greet", "command: /bin/true\nonlyif: /bin/test \\\n",
			"test.yaml:2:9: onlyif: cannot be split into words: Unterminated backslash-escape"},
		{"empty command", "greet", "command: \"\"\n",
			"test.yaml:1:10: command: the command is empty"},
		{"empty shell command", "greet", "command: \"  \"\nprovider: shell\n",
			"test.yaml:1:10: command: the command is empty"},
		{"bad timeout", "/bin/true", "timeout: soon\n",
			`test.yaml:1:10: timeout: "soon" is not a duration such as 30s or 5m`},
		{"negative timeout", "/bin/true", "timeout: -1s\n",
			`test.yaml:1:10: timeout: "-1s" must be positive`},
		{"relative path entry", "/bin/true", "path: /usr/bin:bin\n",
			`test.yaml:1:7: path: "bin": not an absolute path; path is a colon-separated list of absolute directories`},
		{"empty path entry", "/bin/true", "path: \"/usr/bin:\"\n",
			`test.yaml:1:7: path: "": not an absolute path; path is a colon-separated list of absolute directories`},
		{"environment without a value", "/bin/true", "environment:\n  - A=1\n  - B=\n",
			`test.yaml:3:5: environment: item 2: "B=" is not KEY=VALUE with a non-empty key and value`},
		{"environment without a key", "/bin/true", "environment:\n  - =1\n",
			`test.yaml:2:5: environment: item 1: "=1" is not KEY=VALUE with a non-empty key and value`},
		{"environment with a bad key", "/bin/true", "environment:\n  - 1A=1\n",
			`test.yaml:2:5: environment: item 1: "1A=1" is not KEY=VALUE with a non-empty key and value`},
		{"environment not a list", "/bin/true", "environment: A=1\n",
			`test.yaml:1:14: environment: expected a list of strings, got the string "A=1"`},
		{"relative cwd", "/bin/true", "cwd: tmp\n",
			`test.yaml:1:6: cwd: "tmp" is not an absolute path`},
		{"relative creates", "/bin/true", "creates: marker\n",
			`test.yaml:1:10: creates: "marker" is not an absolute path`},
		{"refreshonly not boolean", "/bin/true", "refreshonly: \"yes\"\n",
			`test.yaml:1:14: refreshonly: expected true or false, got the string "yes"`},
		{"returns out of range", "/bin/true", "returns: [0, 256]\n",
			"test.yaml:1:10: returns: item 2: 256 is not an exit code (0 to 255)"},
		{"returns not integers", "/bin/true", "returns: [ok]\n",
			`test.yaml:1:11: returns: item 1: expected an integer, got the string "ok"`},
		{"ensure neither present nor absent", "/bin/true", "ensure: gone\n",
			`test.yaml:1:9: ensure: "gone" is not one of present, absent`},
		{"unknown provider", "/bin/true", "provider: bash\n",
			`test.yaml:1:11: provider: unknown provider "bash"; valid providers: posix, shell`},
		{"docs spelling of refreshonly", "/bin/true", "refresh_only: true\n",
			`test.yaml:1:1: unknown property "refresh_only" for exec#/bin/true; did you mean "refreshonly"?`},
		{"several problems at once", "/bin/true", "timeout: x\ncwd: y\n",
			"test.yaml:1:10: timeout: \"x\" is not a duration such as 30s or 5m\n" +
				"test.yaml:2:6: cwd: \"y\" is not an absolute path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resourcetest.BuildError(t, "exec", tt.exec, tt.props, t.TempDir()); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestValidPropertiesBuild(t *testing.T) {
	tests := []struct{ name, exec, props, provider string }{
		{"name as command", "/bin/echo 'hello world'", "", "posix"},
		{"shell syntax in the shell provider", "x", "command: \"echo it's # a comment\"\nprovider: shell\n", "shell"},
		{"everything", "build", "command: make build\ncwd: /opt/app\nenvironment: [CC=gcc, CFLAGS=-O2]\n" +
			"path: /usr/local/bin:/usr/bin:/bin\nreturns: [0, 2]\ntimeout: 5m\ncreates: /opt/app/out\n" +
			"onlyif: /bin/true\nunless: /bin/false\nrefreshonly: false\nlogoutput: true\nensure: present\n", "posix"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inst := resourcetest.MustBuild(t, "exec", tt.exec, tt.props, t.TempDir())
			if inst.Provider != tt.provider || inst.Ensure != "present" {
				t.Errorf("provider %q ensure %q; want %q and present", inst.Provider, inst.Ensure, tt.provider)
			}
		})
	}
}
