package archive

import (
	"reflect"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestValidation(t *testing.T) {
	const url = "url: https://example.com/app.tar.gz\n"
	const owners = "\nowner: root\ngroup: root"
	for _, tc := range []struct {
		desc, name, props, want string
	}{
		{"no url", "/tmp/app.tar.gz", "owner: root\ngroup: root", "url is required"},
		{"ftp scheme", "/tmp/app.tar.gz", "url: ftp://example.com/app.tar.gz" + owners, "must use http or https"},
		{"no host", "/tmp/app.tar.gz", "url: http:///app.tar.gz" + owners, "url has no host"},
		{"unsupported url extension", "/tmp/app.tar.gz", "url: https://example.com/app.rar" + owners, "must end in one of .tar.gz, .tgz, .tar, .zip"},
		{"unsupported name extension", "/tmp/app.rar", url + "owner: root\ngroup: root", "the name must end in one of"},
		{"kinds differ", "/tmp/app.zip", url + "owner: root\ngroup: root", "the url is a tar.gz, the name a zip"},
		{"relative name", "tmp/app.tar.gz", url + "owner: root\ngroup: root", "clean absolute path"},
		{"unclean name", "/tmp/../app.tar.gz", url + "owner: root\ngroup: root", "clean absolute path, like /app.tar.gz"},
		{"relative extract_parent", "/tmp/app.tar.gz", url + "extract_parent: opt/app" + owners, "extract_parent must be a clean absolute path"},
		{"relative creates", "/tmp/app.tar.gz", url + "creates: opt/app/bin" + owners, "creates must be a clean absolute path"},
		{"cleanup without extract_parent", "/tmp/app.tar.gz", url + "cleanup: true\ncreates: /opt/x" + owners, "cleanup requires extract_parent"},
		{"cleanup without creates", "/tmp/app.tar.gz", url + "cleanup: true\nextract_parent: /opt" + owners, "cleanup requires creates"},
		{"no owner", "/tmp/app.tar.gz", url + "group: root", "owner is required"},
		{"no group", "/tmp/app.tar.gz", url + "owner: root", "group is required"},
		{"bad ensure", "/tmp/app.tar.gz", url + "ensure: latest" + owners, `ensure must be "present" or "absent"`},
		{"unknown provider", "/tmp/app.tar.gz", url + "provider: ftp" + owners, `unknown provider "ftp"`},
		{"short checksum", "/tmp/app.tar.gz", url + "checksum: abc" + owners, "checksum must be a SHA-256"},
		{"password without username", "/tmp/app.tar.gz", url + "password: x" + owners, "password requires username"},
		{"unknown property", "/tmp/app.tar.gz", url + "checksums: x" + owners, `did you mean "checksum"`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got := resourcetest.BuildError(t, "archive", tc.name, tc.props, t.TempDir())
			if !strings.Contains(got, tc.want) {
				t.Errorf("got %s, want an error containing %q", got, tc.want)
			}
			if !strings.HasPrefix(got, "test.yaml:") {
				t.Errorf("the error has no position: %s", got)
			}
		})
	}
}

func TestValidArchivesBuild(t *testing.T) {
	for _, tc := range []struct{ name, props string }{
		{"/tmp/app.tgz", "url: https://example.com/app.tar.gz"},
		{"/tmp/app.tar.gz", "url: http://example.com/dl/app.tgz?x=1"},
		{"/tmp/app.zip", "url: https://example.com/app.zip\nchecksum: " + strings.Repeat("AB", 32)},
		{"/tmp/app.tar", "url: https://example.com/app.tar\nensure: absent\nprovider: http"},
		{"/tmp/archive.tar.gz", "url: https://example.com/archive.TAR.GZ"},
		{"/tmp/APP.ZIP", "url: https://example.com/app.Zip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := resourcetest.Build(t, "archive", tc.name, tc.props+"\nowner: root\ngroup: root", t.TempDir()); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestOrderingAndWatchPaths(t *testing.T) {
	props := "url: https://example.com/app.zip\nextract_parent: /opt/app\ncreates: /opt/app/v1\nowner: root\ngroup: root"
	inst, err := resourcetest.Build(t, "archive", "/var/cache/app.zip", props, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/var/cache/app.zip", "/opt/app/v1"}; !reflect.DeepEqual(inst.Owns, want) {
		t.Errorf("owns %v, want %v", inst.Owns, want)
	}
	if want := []string{"/var/cache/app.zip", "/opt/app"}; !reflect.DeepEqual(inst.Uses, want) {
		t.Errorf("uses %v, want %v", inst.Uses, want)
	}
	if got, want := inst.Resource.Watch().Paths, []string{"/var/cache/app.zip", "/opt/app/v1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("watches %v, want %v", got, want)
	}
	if inst.Provider != "http" || inst.Ensure != "present" {
		t.Errorf("provider %q ensure %q", inst.Provider, inst.Ensure)
	}
}

func TestEveryProblemIsReportedAtOnce(t *testing.T) {
	got := resourcetest.BuildError(t, "archive", "/tmp/app.zip", "url: ftp://example.com/app.tar\nchecksums: x\ncleanup: true", t.TempDir())
	for _, want := range []string{"unknown property", "must use http or https", "the url is a tar, the name a zip", "cleanup requires extract_parent", "owner is required", "group is required"} {
		if !strings.Contains(got, want) {
			t.Errorf("the errors do not say %q: %s", want, got)
		}
	}
}
