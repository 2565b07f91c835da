package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"golang.org/x/sys/unix"
)

// member is one entry of a crafted archive: a header saying what it
// likes, and a body for a regular file.
type member struct {
	tar.Header
	body string
}

// craft builds a tar or zip archive of members, headers as they are.
func craft(t testing.TB, kind string, members []member) []byte {
	t.Helper()
	var buf bytes.Buffer
	switch kind {
	case "tar":
		tw := tar.NewWriter(&buf)
		for _, m := range members {
			h := m.Header
			h.Size = int64(len(m.body))
			if err := tw.WriteHeader(&h); err != nil {
				t.Fatal(err)
			}
			if _, err := tw.Write([]byte(m.body)); err != nil {
				t.Fatal(err)
			}
		}
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
	case "zip":
		zw := zip.NewWriter(&buf)
		for _, m := range members {
			fh := &zip.FileHeader{Name: m.Name, Method: zip.Store}
			fh.SetMode(m.FileInfo().Mode())
			w, err := zw.CreateHeader(fh)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write([]byte(m.body)); err != nil {
				t.Fatal(err)
			}
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("unknown kind %q", kind)
	}
	return buf.Bytes()
}

func file(name string, mode int64, body string) member {
	return member{Header: tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode}, body: body}
}

// rootFile is a member that says it belongs to root.
func rootFile(name string, mode int64, body string) member {
	m := file(name, mode, body)
	m.Uname, m.Gname = "root", "root"
	return m
}

// nobodyProps are the properties of an archive kept for Nobody, extracted
// into parent.
func nobodyProps(url, parent string, extra ...string) string {
	return strings.Join(append([]string{"url: " + url, "extract_parent: " + parent, "creates: " + filepath.Join(parent, "VERSION"),
		"owner: nobody", "group: nogroup"}, extra...), "\n")
}

// assertOnlyNobodys fails unless every entry below dir belongs to Nobody
// and none is setuid or setgid.
func assertOnlyNobodys(t *testing.T, dir string) {
	t.Helper()
	err := filepath.Walk(dir, func(path string, _ os.FileInfo, err error) error {
		if err != nil || path == dir {
			return err
		}
		var st unix.Stat_t
		if err := unix.Lstat(path, &st); err != nil {
			return err
		}
		if st.Uid != resourcetest.Nobody || st.Gid != resourcetest.Nobody || st.Mode&(unix.S_ISUID|unix.S_ISGID) != 0 {
			t.Errorf("%s: uid %d gid %d mode %o; want Nobody's, neither setuid nor setgid", path, st.Uid, st.Gid, st.Mode&0o7777)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The archive belongs to Nobody, who rewrites it in place, again and
// again, with an archive of the same size holding a setuid-root shell,
// while root checks and extracts it: what is extracted is only ever what
// matched the checksum.
func TestAttackArchiveRewrittenInPlace(t *testing.T) {
	good := craft(t, "tar", []member{file("VERSION", 0o644, "1\n"), file("app/bin/app", 0o755, "#!/bin/sh\necho good\n")})
	evil := craft(t, "tar", []member{file("VERSION", 0o644, "1\n"), rootFile("app/bin/app", 0o4755, "#!/bin/sh\necho evil\n")})
	if len(good) != len(evil) {
		t.Fatalf("fixtures of %d and %d bytes, want the same size", len(good), len(evil))
	}
	srv := serve(t, good, nil)
	home := resourcetest.NobodyHome(t)
	inputs := resourcetest.NobodyHome(t)
	for name, b := range map[string][]byte{"good": good, "evil": evil} {
		if err := os.WriteFile(filepath.Join(inputs, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	parent := filepath.Join(t.TempDir(), "opt")
	name := filepath.Join(home, "app.tar")
	a := buildArchive(t, name, nobodyProps(srv.URL+"/app.tar", parent, "checksum: "+sum(good)))
	resourcetest.Converge(t.Context(), t, a, false, false)

	app := filepath.Join(parent, "app/bin/app")
	var extracted, refused int
	rewrites := resourcetest.Racing(t, func() {
		for _, p := range []string{filepath.Join(parent, "VERSION"), app} {
			if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
		}
		_, err := resources.Converge(t.Context(), a, false, false)
		switch {
		case errors.Is(err, ErrChecksumMismatch), errors.Is(err, resources.ErrDesiredStateFailed):
			// Refused, or Nobody rewrote the archive after its download.
			refused++
		case err != nil:
			t.Fatalf("unexpected error: %v", err)
		default:
			extracted++
		}
		if b, err := os.ReadFile(app); err == nil && !strings.Contains(string(b), "good") {
			t.Fatalf("extraction %d yielded %q: the rewritten archive was extracted", extracted+refused, b)
		}
		assertOnlyNobodys(t, parent)
	}, "rewrite", name, filepath.Join(inputs, "good"), filepath.Join(inputs, "evil"))
	t.Logf("%d rewrites; %d extractions, %d refused with a checksum mismatch", rewrites, extracted, refused)
	for _, dir := range []string{home, parent} {
		if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
			t.Fatalf("left behind: %v", left)
		}
	}
}

// Nobody puts an archive of its crafting where its archive is kept, with
// no checksum to hold it to, before root extracts it: whatever the members
// say, what comes out is Nobody's, neither setuid nor setgid, and a
// device, FIFO or the like is refused with nothing extracted.
func TestAttackCraftedMembers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		kind    string
		members []member
		// refused, when set, is what the error names: nothing is extracted.
		refused string
	}{
		{name: "setuid-root binary", kind: "tar", members: []member{rootFile("VERSION", 0o644, "1\n"), rootFile("sh", 0o4755, "#!/bin/sh\n")}},
		{name: "setgid root directory", kind: "tar", members: []member{
			{Header: tar.Header{Typeflag: tar.TypeDir, Name: "shared/", Mode: 0o2777, Uname: "root", Gname: "root"}},
			rootFile("shared/x", 0o6755, "x"), rootFile("VERSION", 0o644, "1\n")}},
		{name: "root's symlink and hard link", kind: "tar", members: []member{rootFile("VERSION", 0o644, "1\n"),
			{Header: tar.Header{Typeflag: tar.TypeSymlink, Name: "etc", Linkname: "/etc", Uname: "root", Gname: "root"}},
			{Header: tar.Header{Typeflag: tar.TypeLink, Name: "again", Linkname: "VERSION", Uname: "root", Gname: "root"}}}},
		{name: "setuid zip member", kind: "zip", members: []member{file("VERSION", 0o644, "1\n"), file("sh", 0o4755, "#!/bin/sh\n")}},
		{name: "device node", kind: "tar", refused: "mem is a character device", members: []member{rootFile("VERSION", 0o644, "1\n"),
			{Header: tar.Header{Typeflag: tar.TypeChar, Name: "mem", Mode: 0o666, Devmajor: 1, Devminor: 1, Uname: "root", Gname: "root"}}}},
		{name: "FIFO", kind: "tar", refused: "pipe is a FIFO", members: []member{rootFile("VERSION", 0o644, "1\n"),
			{Header: tar.Header{Typeflag: tar.TypeFifo, Name: "pipe", Mode: 0o666}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			crafted := craft(t, tc.kind, tc.members)
			home := resourcetest.NobodyHome(t)
			if err := os.WriteFile(filepath.Join(home, "crafted"), crafted, 0o644); err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(home, "app."+tc.kind)
			resourcetest.AsNobody(t, "copy", filepath.Join(home, "crafted"), name)
			parent := filepath.Join(t.TempDir(), "opt")
			a := buildArchive(t, name, nobodyProps("http://127.0.0.1:1/app."+tc.kind, parent))
			_, err := resources.Converge(t.Context(), a, false, false)
			if tc.refused != "" {
				if !errors.Is(err, ErrExtract) || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("error %v, want an extraction refused because %s", err, tc.refused)
				}
				if left, err := os.ReadDir(parent); err != nil || len(left) > 0 {
					t.Fatalf("%s holds %v (%v) after a refused extraction, want nothing", parent, left, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !resourcetest.FileIs(filepath.Join(parent, "VERSION"), "1\n") {
				t.Fatal("the archive was not extracted")
			}
			assertOnlyNobodys(t, parent)
		})
	}
}

// An archive kept for root is root's to trust: its members keep the
// owners and modes they say.
func TestRootsArchiveKeepsItsMembersOwnersAndModes(t *testing.T) {
	body := craft(t, "tar", []member{rootFile("VERSION", 0o644, "1\n"), rootFile("sh", 0o4755, "#!/bin/sh\n")})
	srv := serve(t, body, nil)
	dir := t.TempDir()
	parent := filepath.Join(dir, "opt")
	a := buildArchive(t, filepath.Join(dir, "app.tar"), strings.Join([]string{"url: " + srv.URL + "/app.tar",
		"extract_parent: " + parent, "creates: " + filepath.Join(parent, "VERSION"), "checksum: " + sum(body)}, "\n"))
	resourcetest.Converge(t.Context(), t, a, false, false)
	var st unix.Stat_t
	if err := unix.Stat(filepath.Join(parent, "sh"), &st); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 && (st.Uid != 0 || st.Mode&0o7777 != 0o4755) {
		t.Fatalf("sh: uid %d mode %o; want root's setuid binary as the archive says", st.Uid, st.Mode&0o7777)
	}
}

// While root downloads an archive into Nobody's directory, Nobody finds
// nothing of it there to write into: the download is kept where only root
// can reach it until it is verified and in place.
func TestAttackDownloadInProgress(t *testing.T) {
	body := craft(t, "tar", []member{file("VERSION", 0o644, "1\n"), file("app/bin/app", 0o755, strings.Repeat("#", 64<<10))})
	half, resume := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write(body[:len(body)/2])
		w.(http.Flusher).Flush()
		close(half)
		<-resume
		w.Write(body[len(body)/2:])
	}))
	t.Cleanup(srv.Close)
	home := resourcetest.NobodyHome(t)
	parent := filepath.Join(t.TempDir(), "opt")
	a := buildArchive(t, filepath.Join(home, "app.tar"), nobodyProps(srv.URL+"/app.tar", parent, "checksum: "+sum(body)))
	done := make(chan error, 1)
	go func() {
		_, err := resources.Converge(t.Context(), a, false, false)
		done <- err
	}()
	<-half
	tampered := resourcetest.AsNobody(t, "tamper", home)
	close(resume)
	if err := <-done; err != nil {
		t.Fatalf("the download failed: %v", err)
	}
	if tampered != "" {
		t.Fatalf("Nobody wrote into the download in progress:\n%s", tampered)
	}
	if got := resourcetest.ReadFile(t, filepath.Join(home, "app.tar")); got != string(body) {
		t.Fatal("the archive in place is not what was downloaded")
	}
	if left, _ := filepath.Glob(filepath.Join(home, ".*")); len(left) > 0 {
		t.Fatalf("left behind: %v", left)
	}
	assertOnlyNobodys(t, parent)
}
