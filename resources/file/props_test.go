package file_test

import (
	"testing"

	_ "github.com/reactive-ccm/ccm/resources/file"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestValidationMessages(t *testing.T) {
	const attrs = "owner: root\ngroup: root\nmode: \"0644\"\n"
	tests := []struct {
		name, path, props, want string
	}{
		{"relative path", "etc/motd", "ensure: present\n" + attrs,
			"test.yaml:1:1: file#etc/motd: the path must be absolute"},
		{"unclean path", "/etc//motd/", "ensure: present\n" + attrs,
			"test.yaml:1:1: file#/etc//motd/: the path must be clean (no ., .., // or trailing /): write /etc/motd"},
		{"dot dot in path", "/etc/../motd", "ensure: present\n" + attrs,
			"test.yaml:1:1: file#/etc/../motd: the path must be clean (no ., .., // or trailing /): write /motd"},
		{"ensure missing", "/x", attrs,
			"test.yaml:1:1: file#/x: ensure is required: present, absent or directory"},
		{"ensure unknown", "/x", "ensure: file\n" + attrs,
			`test.yaml:1:9: ensure: "file" is not one of present, absent, directory`},
		{"content and source", "/x", "ensure: present\ncontent: a\nsource: b\n" + attrs,
			"test.yaml:3:9: source: content and source cannot both be set"},
		{"content on a directory", "/x", "ensure: directory\ncontent: a\n" + attrs,
			"test.yaml:2:10: content: only valid with ensure: present"},
		{"empty source", "/x", "ensure: present\nsource: \"\"\n" + attrs,
			"test.yaml:2:9: source: must not be empty"},
		{"attributes missing", "/x", "ensure: directory\n",
			"test.yaml:1:1: file#/x: owner is required unless ensure is absent\n" +
				"test.yaml:1:1: file#/x: group is required unless ensure is absent\n" +
				"test.yaml:1:1: file#/x: mode is required unless ensure is absent"},
		{"mode not octal", "/x", "ensure: present\nowner: root\ngroup: root\nmode: \"0888\"\n",
			`test.yaml:4:7: mode: "0888" is not an octal mode; write it like "0644"`},
		{"mode symbolic", "/x", "ensure: present\nowner: root\ngroup: root\nmode: rw-r--r--\n",
			`test.yaml:4:7: mode: "rw-r--r--" is not an octal mode; write it like "0644"`},
		{"mode with setuid", "/x", "ensure: present\nowner: root\ngroup: root\nmode: \"4755\"\n",
			`test.yaml:4:7: mode: "4755" is above 0777; setuid, setgid and sticky bits cannot be set through mode`},
		{"mode empty", "/x", "ensure: present\nowner: root\ngroup: root\nmode: \"\"\n",
			`test.yaml:4:7: mode: "" is not an octal mode; write it like "0644"`},
		{"force without absent", "/x", "ensure: directory\nforce: true\n" + attrs,
			"test.yaml:2:8: force: only valid with ensure: absent"},
		{"root", "/", "ensure: absent\nforce: true\n",
			"test.yaml:1:1: file#/: / has no parent directory to manage it in"},
		{"force not boolean", "/x", "ensure: absent\nforce: yes please\n",
			`test.yaml:2:8: force: expected true or false, got the string "yes please"`},
		{"unknown provider", "/x", "ensure: absent\nprovider: nfs\n",
			`test.yaml:2:11: provider: unknown provider "nfs"; valid providers: posix`},
		{"validate without content", "/x", "ensure: present\nvalidate: /bin/sh -n %s\n" + attrs,
			"test.yaml:2:11: validate: only valid with content or source"},
		{"validate without %s", "/x", "ensure: present\ncontent: a\nvalidate: /usr/sbin/nginx -t\n" + attrs,
			"test.yaml:3:11: validate: the command must name the new content as %s"},
		{"validate with an unbalanced quote", "/x", "ensure: present\ncontent: a\nvalidate: \"/bin/sh -n '%s\"\n" + attrs,
			"test.yaml:3:11: validate: cannot be split into words: Unterminated single-quoted string"},
		{"misspelt property", "/x", "ensure: absent\ncontents: a\n",
			`test.yaml:2:1: unknown property "contents" for file#/x; did you mean "content"?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resourcetest.BuildError(t, "file", tt.path, tt.props, t.TempDir()); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestValidPropertiesBuild(t *testing.T) {
	tests := []struct{ name, path, props string }{
		{"absent needs no attributes", "/x", "ensure: absent\n"},
		{"absent with force", "/x", "ensure: absent\nforce: true\n"},
		{"present without content manages attributes", "/x", "ensure: present\nowner: root\ngroup: '0'\nmode: 644\n"},
		{"numeric owner and group", "/x", "ensure: present\ncontent: a\nowner: 1000\ngroup: 1000\nmode: 0o600\n"},
		{"directory", "/x/y", "ensure: directory\nowner: root\ngroup: root\nmode: \"0755\"\nprovider: posix\n"},
		{"source", "/x", "ensure: present\nsource: files/x\nowner: root\ngroup: root\nmode: \"0644\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inst := resourcetest.MustBuild(t, "file", tt.path, tt.props, t.TempDir())
			if inst.Provider != "posix" {
				t.Errorf("provider %q, want posix", inst.Provider)
			}
		})
	}
}
