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
	resourcetest.Rejects(t, "archive", []resourcetest.Rejected{
		{Case: "no url", Name: "/tmp/app.tar.gz", Props: "owner: root\ngroup: root", Want: "url is required"},
		{Case: "ftp scheme", Name: "/tmp/app.tar.gz", Props: "url: ftp://example.com/app.tar.gz" + owners, Want: "must use http or https"},
		{Case: "no host", Name: "/tmp/app.tar.gz", Props: "url: http:///app.tar.gz" + owners, Want: "url has no host"},
		{Case: "unsupported url extension", Name: "/tmp/app.tar.gz", Props: "url: https://example.com/app.rar" + owners, Want: "must end in one of .tar.gz, .tgz, .tar, .zip"},
		{Case: "unsupported name extension", Name: "/tmp/app.rar", Props: url + "owner: root\ngroup: root", Want: "the name must end in one of"},
		{Case: "kinds differ", Name: "/tmp/app.zip", Props: url + "owner: root\ngroup: root", Want: "the url is a tar.gz, the name a zip"},
		{Case: "relative name", Name: "tmp/app.tar.gz", Props: url + "owner: root\ngroup: root", Want: "clean absolute path"},
		{Case: "unclean name", Name: "/tmp/../app.tar.gz", Props: url + "owner: root\ngroup: root", Want: "clean absolute path, like /app.tar.gz"},
		{Case: "relative extract_parent", Name: "/tmp/app.tar.gz", Props: url + "extract_parent: opt/app" + owners, Want: "extract_parent must be a clean absolute path"},
		{Case: "relative creates", Name: "/tmp/app.tar.gz", Props: url + "creates: opt/app/bin" + owners, Want: "creates must be a clean absolute path"},
		{Case: "cleanup without extract_parent", Name: "/tmp/app.tar.gz", Props: url + "cleanup: true\ncreates: /opt/x" + owners, Want: "cleanup requires extract_parent"},
		{Case: "cleanup without creates", Name: "/tmp/app.tar.gz", Props: url + "cleanup: true\nextract_parent: /opt" + owners, Want: "cleanup requires creates"},
		{Case: "no owner", Name: "/tmp/app.tar.gz", Props: url + "group: root", Want: "owner is required"},
		{Case: "no group", Name: "/tmp/app.tar.gz", Props: url + "owner: root", Want: "group is required"},
		{Case: "bad ensure", Name: "/tmp/app.tar.gz", Props: url + "ensure: latest" + owners, Want: `ensure must be "present" or "absent"`},
		{Case: "unknown provider", Name: "/tmp/app.tar.gz", Props: url + "provider: ftp" + owners, Want: `unknown provider "ftp"`},
		{Case: "short checksum", Name: "/tmp/app.tar.gz", Props: url + "checksum: abc" + owners, Want: "checksum must be a SHA-256"},
		{Case: "password without username", Name: "/tmp/app.tar.gz", Props: url + "password: x" + owners, Want: "password requires username"},
		{Case: "unknown property", Name: "/tmp/app.tar.gz", Props: url + "checksums: x" + owners, Want: `did you mean "checksum"`},
	})
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
	resourcetest.ReportsAll(t, "archive", "/tmp/app.zip", "url: ftp://example.com/app.tar\nchecksums: x\ncleanup: true",
		"unknown property", "must use http or https", "the url is a tar, the name a zip", "cleanup requires extract_parent", "owner is required", "group is required")
}
