package bundle_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
)

// TestEntryNames is the table of the names and types Extract refuses,
// with what it says, and the ones it cleans and takes.
func TestEntryNames(t *testing.T) {
	cases := []struct {
		name string
		hdr  *tar.Header
		// want is the error's text after "bundle: unsafe entry: ", or
		// empty when the entry is taken.
		want string
	}{
		{"empty", reg(""), `"" is not a relative name`},
		{"root slash", &tar.Header{Typeflag: tar.TypeDir, Name: "/"}, `"/" is not a relative name`},
		{"backslash", reg(`a\..\..\x`), `"a\\..\\..\\x" is not a relative name`},
		{"dot-dot at the end", reg("a/.."), `"a/.." climbs out of the bundle`},
		{"the root itself", &tar.Header{Typeflag: tar.TypeDir, Name: "./"}, `"./" names the bundle's root`},
		{"a directory that cleans to the root", &tar.Header{Typeflag: tar.TypeDir, Name: "a/../"}, `"a/../" climbs out of the bundle`},
		{"fifo", &tar.Header{Typeflag: tar.TypeFifo, Name: "p"}, `"p" is a fifo; bundles hold regular files and directories only`},
		{"block device", &tar.Header{Typeflag: tar.TypeBlock, Name: "sda"}, `"sda" is a device`},
		{"symlink", &tar.Header{Typeflag: tar.TypeSymlink, Name: "l", Linkname: "x"}, `"l" is a symlink`},
		{"hard link", &tar.Header{Typeflag: tar.TypeLink, Name: "h", Linkname: "manifest.yaml"}, `"h" is a hard link`},
		{"another type", &tar.Header{Typeflag: tar.TypeCont, Name: "c"}, `"c" is a entry of type '7'`},
		{"255 levels", reg(strings.Repeat("a/", 255) + "f"), ""},
		{"256 levels", reg(strings.Repeat("a/", 256) + "f"), "a name of 513 bytes, 257 levels deep; at most 4096 bytes and 256 levels"},
		{"4096 bytes", reg(strings.Repeat(strings.Repeat("b", 240)+"/", 16) + strings.Repeat("b", 240)), ""},
		{"4097 bytes", reg(strings.Repeat(strings.Repeat("b", 240)+"/", 16) + strings.Repeat("b", 241)), "a name of 4097 bytes, 17 levels deep"},
		{"dot segments are cleaned", reg("./x/./y"), ""},
		{"a trailing slash on a directory", &tar.Header{Typeflag: tar.TypeDir, Name: "d/"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dest := filepath.Join(t.TempDir(), "out")
			_, err := bundle.Extract(bytes.NewReader(tarball(t, reg("manifest.yaml"), c.hdr)), dest, bundle.Limits{})
			if c.want == "" && err != nil || c.want != "" && (!errors.Is(err, bundle.ErrUnsafeEntry) || !strings.Contains(err.Error(), "bundle: unsafe entry: "+c.want)) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

// TestExtractWritesWhatThePackerMeant: files keep only their executable
// bit, parents missing from the tarball are made, and the manifest's path
// is inside dest.
func TestExtractWritesWhatThePackerMeant(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "out")
	m, err := bundle.Extract(bytes.NewReader(tarball(t,
		&tar.Header{Typeflag: tar.TypeReg, Name: "manifest.yaml", Mode: 0o4777},
		&tar.Header{Typeflag: tar.TypeReg, Name: "deep/in/a/file", Mode: 0o600},
		&tar.Header{Typeflag: tar.TypeReg, Name: "bin/run", Mode: 0o010},
	)), dest, bundle.Limits{})
	if err != nil || m != dest+"/manifest.yaml" {
		t.Fatalf("manifest %s, %v", m, err)
	}
	for name, want := range map[string]os.FileMode{"manifest.yaml": 0o755, "deep/in/a/file": 0o644, "bin/run": 0o755, "deep/in": os.ModeDir | 0o755} {
		fi, err := os.Stat(filepath.Join(dest, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode() &^ umaskBits(t); got != want&^umaskBits(t) {
			t.Errorf("%s: mode %v, want %v", name, got, want)
		}
	}
	if fi, err := os.Stat(dest); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("dest mode %v, %v", fi.Mode(), err)
	}
	empty := t.TempDir()
	if _, err := bundle.Extract(bytes.NewReader(tarball(t, reg("manifest.yaml"))), empty, bundle.Limits{}); !errors.Is(err, os.ErrExist) {
		t.Fatalf("extracting onto an existing directory: %v", err)
	}
}

// umaskBits are the permission bits the process's umask may clear.
func umaskBits(t *testing.T) os.FileMode {
	t.Helper()
	p := filepath.Join(t.TempDir(), "probe")
	if err := os.WriteFile(p, nil, 0o777); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return 0o777 &^ fi.Mode().Perm()
}

// TestExtractLimitsAreInclusive: a bundle at its limits is taken; one
// entry or byte more is not, and says which limit.
func TestExtractLimitsAreInclusive(t *testing.T) {
	tgz := tarball(t, reg("manifest.yaml"), reg("a"), reg("b"))
	cases := []struct {
		lim  bundle.Limits
		want string
	}{
		{bundle.Limits{Entries: 3, Bytes: 3}, ""},
		{bundle.Limits{Entries: 2}, "bundle: too large: more than 2 entries"},
		{bundle.Limits{Bytes: 2}, "bundle: too large: more than 2 bytes"},
	}
	for _, c := range cases {
		_, err := bundle.Extract(bytes.NewReader(tgz), filepath.Join(t.TempDir(), "o"), c.lim)
		if c.want == "" && err != nil || c.want != "" && (err == nil || err.Error() != c.want) {
			t.Errorf("%+v: err = %v, want %q", c.lim, err, c.want)
		}
	}
	_, err := bundle.Extract(bytes.NewReader([]byte("not gzip")), filepath.Join(t.TempDir(), "o"), bundle.Limits{})
	if err == nil || !strings.HasPrefix(err.Error(), "bundle: not a gzipped tarball: ") {
		t.Fatalf("garbage: %v", err)
	}
	tgz = tarball(t, reg("manifest.yaml"))
	_, err = bundle.Extract(bytes.NewReader(tgz[:len(tgz)/2]), filepath.Join(t.TempDir(), "o"), bundle.Limits{})
	if err == nil || !strings.HasPrefix(err.Error(), "bundle: reading tarball: ") {
		t.Fatalf("a truncated tarball: %v", err)
	}
}

// TestExtractTakesOnlyAFileAsTheManifest: a directory named
// manifest.yaml is not the manifest.
func TestExtractTakesOnlyAFileAsTheManifest(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "o")
	m, err := bundle.Extract(bytes.NewReader(tarball(t, &tar.Header{Typeflag: tar.TypeDir, Name: "manifest.yaml/"}, reg("manifest.yaml/x"), reg("a/b/manifest.yaml"))), dest, bundle.Limits{})
	if err != nil || m != dest+"/a/b/manifest.yaml" {
		t.Fatalf("manifest %s, %v", m, err)
	}
}

// TestPackIsDeterministic: the same tree packs to the same bytes, with
// modes normalised to 0644 and 0755 whatever the tree's own.
func TestPackIsDeterministic(t *testing.T) {
	src := t.TempDir()
	write(t, src+"/manifest.yaml", "m")
	write(t, src+"/b/z", "z")
	write(t, src+"/a", "a")
	if err := os.Chmod(src+"/a", 0o610); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(src+"/b/z", 0o600); err != nil {
		t.Fatal(err)
	}
	one := pack(t, src)
	past := time.Unix(1_000_000_000, 0)
	if err := os.Chtimes(src+"/a", past, past); err != nil {
		t.Fatal(err)
	}
	if two := pack(t, src); !bytes.Equal(one, two) {
		t.Fatal("packing the same tree twice gave different bytes")
	}
	var got []string
	gz, err := gzip.NewReader(bytes.NewReader(one))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		got = append(got, h.Name+" "+os.FileMode(h.Mode).String())
		if h.Uid != 0 || h.Uname != "" || !h.ModTime.IsZero() && h.ModTime.Unix() != 0 {
			t.Errorf("%s carries the packer's owner or time: %+v", h.Name, h)
		}
	}
	want := "a -rwxr-xr-x,b/ -rwxr-xr-x,b/z -rw-r--r--,manifest.yaml -rw-r--r--"
	if strings.Join(got, ",") != want {
		t.Fatalf("entries %q, want %q", strings.Join(got, ","), want)
	}
}

func TestPackErrorsSayWhere(t *testing.T) {
	src := t.TempDir()
	if err := os.Mkdir(src+"/manifest.yaml", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := bundle.Pack(src, &bytes.Buffer{}); err == nil || err.Error() != "bundle: no manifest.yaml in "+src {
		t.Fatalf("a directory named manifest.yaml: %v", err)
	}
	src = t.TempDir()
	write(t, src+"/manifest.yaml", "m")
	if err := os.Symlink("manifest.yaml", src+"/link"); err != nil {
		t.Fatal(err)
	}
	if err := bundle.Pack(src, &bytes.Buffer{}); err == nil || err.Error() != "bundle: packing "+src+": bundle: unsafe entry: link is not a regular file or directory" {
		t.Fatalf("a symlink: %v", err)
	}
}
