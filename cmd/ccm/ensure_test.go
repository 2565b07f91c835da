package main_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
)

// ccmIn runs the binary in dir with env added to the environment and
// stdin as its input.
func ccmIn(t *testing.T, dir string, env []string, stdin string, args ...string) result {
	t.Helper()
	return runIn(t, exec.Command(bin, args...), dir, env, stdin)
}

// runIn runs cmd to completion in dir, with env added to the environment.
func runIn(t *testing.T, cmd *exec.Cmd, dir string, env []string, stdin string) result {
	t.Helper()
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("running ccm: %v", err)
	}
	return result{out.String(), errb.String(), code}
}

// wantLine checks r printed one result line starting with prefix and
// exited with code.
func wantLine(t *testing.T, r result, code int, prefix string) {
	t.Helper()
	if r.code != code || !strings.HasPrefix(r.stdout, prefix) || strings.Count(r.stdout, "\n") != 1 {
		t.Fatalf("got exit %d, output %q (stderr %q); want exit %d and one line starting %q", r.code, r.stdout, r.stderr, code, prefix)
	}
}

// owner returns the names of path's owner and group.
func owner(t *testing.T, path string) (string, string, os.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	u, err := user.LookupId(strconv.Itoa(int(st.Uid)))
	if err != nil {
		t.Fatal(err)
	}
	g, err := user.LookupGroupId(strconv.Itoa(int(st.Gid)))
	if err != nil {
		t.Fatal(err)
	}
	return u.Username, g.Name, fi.Mode()
}

// needRoot skips tests that give files away to other users.
func needRoot(t *testing.T) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root: chowns files to other users")
	}
}

func TestEnsureFile(t *testing.T) {
	dir := t.TempDir()
	motd := filepath.Join(dir, "motd")
	t.Run("content is templated and the result line is upstream's", func(t *testing.T) {
		r := ccmIn(t, dir, nil, "", "ensure", "file", motd, "--content", "Managed by {{ 'ccm' }}\n")
		wantLine(t, r, 0, "WARN  file#"+motd+" changed ensure=present runtime=")
		if !strings.HasSuffix(r.stdout, " provider=posix\n") {
			t.Errorf("result line %q does not end with the provider", r.stdout)
		}
		if got := read(t, motd); got != "Managed by ccm\n" {
			t.Fatalf("content %q", got)
		}
		u, g, mode := owner(t, motd)
		cu, _ := user.Current()
		if u != cu.Username || mode.Perm() != 0o644 || g == "" {
			t.Fatalf("owner %s:%s mode %v; want the invoking user and 0644 by default", u, g, mode)
		}
	})
	t.Run("a second call is stable", func(t *testing.T) {
		r := ccmIn(t, dir, nil, "", "ensure", "file", motd, "--content", "Managed by {{ 'ccm' }}\n")
		wantLine(t, r, 0, "INFO  file#"+motd+" stable ensure=present")
	})
	t.Run("noop reports and changes nothing", func(t *testing.T) {
		r := ccmIn(t, dir, nil, "", "ensure", "--noop", "file", motd, "--content", "other")
		wantLine(t, r, 0, "WARN  file#"+motd+" changed")
		if !strings.Contains(r.stdout, `noop="Would have created the file"`) || read(t, motd) != "Managed by ccm\n" {
			t.Fatalf("noop: %q", r.stdout)
		}
	})
	t.Run("upstream's docs: --source with --owner --group --mode", func(t *testing.T) {
		needRoot(t)
		src := filepath.Join(dir, "motd.src")
		write(t, src, "verbatim {{ not a template }}\n")
		r := ccmIn(t, dir, nil, "", "ensure", "file", motd, "--source", src, "--owner", "nobody", "--group", "nogroup", "--mode", "0640")
		wantLine(t, r, 0, "WARN  file#"+motd+" changed")
		u, g, mode := owner(t, motd)
		if read(t, motd) != "verbatim {{ not a template }}\n" || u != "nobody" || g != "nogroup" || mode.Perm() != 0o640 {
			t.Fatalf("got %s:%s %v %q", u, g, mode, read(t, motd))
		}
	})
	t.Run("--owner user:group sets both (upstream ignores it)", func(t *testing.T) {
		needRoot(t)
		r := ccmIn(t, dir, nil, "", "ensure", "file", filepath.Join(dir, "d"), "directory", "--owner", "nobody:nogroup")
		wantLine(t, r, 0, "WARN  file#"+filepath.Join(dir, "d")+" changed ensure=directory")
		u, g, mode := owner(t, filepath.Join(dir, "d"))
		if u != "nobody" || g != "nogroup" || mode.Perm() != 0o755 || !mode.IsDir() {
			t.Fatalf("got %s:%s %v; want nobody:nogroup and the default mode widened to 0755", u, g, mode)
		}
	})
	t.Run("--content-file is templated", func(t *testing.T) {
		tmpl := filepath.Join(dir, "motd.tmpl")
		write(t, tmpl, "{{ 6 * 7 }}")
		r := ccmIn(t, dir, nil, "", "ensure", "file", motd, "--content-file", tmpl)
		wantLine(t, r, 0, "WARN  file#"+motd+" changed")
		if got := read(t, motd); got != "42" {
			t.Fatalf("content %q", got)
		}
		// upstream's docs and older releases spell it --contents-file
		write(t, tmpl, "{{ 6 * 9 }}")
		r = ccmIn(t, dir, nil, "", "ensure", "file", motd, "--contents-file", tmpl)
		wantLine(t, r, 0, "WARN  file#"+motd+" changed")
		if got := read(t, motd); got != "54" {
			t.Fatalf("content %q", got)
		}
	})
	t.Run("--content-file reads only a regular file", func(t *testing.T) {
		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, from := range []string{fifo, "/dev/zero"} {
			r := ccmIn(t, dir, nil, "", "ensure", "file", motd, "--content-file", from)
			if r.code != 2 || !strings.Contains(r.stderr, "not a regular file") {
				t.Fatalf("--content-file %s: exit %d\n%s", from, r.code, r.stderr)
			}
		}
	})
	t.Run("absent", func(t *testing.T) {
		r := ccmIn(t, dir, nil, "", "ensure", "file", motd, "absent")
		wantLine(t, r, 0, "WARN  file#"+motd+" changed ensure=absent")
		if _, err := os.Stat(motd); !os.IsNotExist(err) {
			t.Fatalf("still there: %v", err)
		}
	})
}

func TestEnsureRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"invalid property", []string{"file", filepath.Join(dir, "x"), "--mode", "999"}, `mode: "999" is not an octal mode`},
		{"relative path", []string{"file", "x"}, "the path must be absolute"},
		{"flag and argument", []string{"file", filepath.Join(dir, "x"), "absent", "--ensure", "present"}, "given both as a flag and as the ENSURE argument"},
		{"content and content-file", []string{"file", filepath.Join(dir, "x"), "--content", "a", "--content-file", "/dev/null"}, "cannot be given with --content-file"},
		{"owner split and group", []string{"file", filepath.Join(dir, "x"), "--owner", "a:b", "--group", "c"}, "sets group, which is given too"},
		{"unknown flag", []string{"exec", "/bin/true", "--nosuch"}, "unknown flag: --nosuch"},
		{"require outside a session", []string{"exec", "/bin/true", "--require", "file#/etc/motd"}, "run both in a session"},
		{"no manifest-only types", []string{"apply", "x.yaml"}, `unknown command "apply" for "ccm ensure"; its commands: api, ` + strings.Join(ensurable(), ", ") + "\n"},
		{"an unquoted command", []string{"exec", "/usr/bin/touch", "x"}, "usage: ccm ensure exec NAME [flags]; got 2 arguments"},
		{"no name", []string{"file"}, "usage: ccm ensure file NAME [ENSURE] [flags]; got 0 arguments"},
		{"no such session", []string{"exec", "/bin/true", "--session", filepath.Join(dir, "s")}, "start one with `ccm session new --directory " + filepath.Join(dir, "s") + "`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ccmIn(t, dir, []string{"CCM_SESSION_STORE="}, "", append([]string{"ensure"}, tt.args...)...)
			if r.code != 2 || !strings.Contains(r.stderr, tt.want) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", r.code, r.stderr, tt.want)
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("bad input touched the host: %v", entries)
	}
}

func TestEnsureExec(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "hello")
	t.Run("upstream's docs: --creates --timeout", func(t *testing.T) {
		r := ccmIn(t, dir, nil, "", "ensure", "exec", "/usr/bin/touch "+marker, "--creates", marker, "--timeout", "30s")
		wantLine(t, r, 0, "WARN  exec#/usr/bin/touch "+marker+" changed")
		r = ccmIn(t, dir, nil, "", "ensure", "exec", "/usr/bin/touch "+marker, "--creates", marker, "--timeout", "30s")
		wantLine(t, r, 0, "INFO  exec#/usr/bin/touch "+marker+" stable")
	})
	t.Run("a failure exits 1 with upstream's error", func(t *testing.T) {
		r := ccmIn(t, dir, nil, "", "ensure", "exec", "/bin/false")
		wantLine(t, r, 1, "ERROR exec#/bin/false failed ensure=present")
		if !strings.Contains(r.stdout, `errors="failed to reach desired state: exit code 1: exit code 1 not in allowed returns [0]"`) {
			t.Fatalf("result line %q", r.stdout)
		}
	})
	t.Run("--returns, -e, --cwd, --alias", func(t *testing.T) {
		out := filepath.Join(dir, "env")
		r := ccmIn(t, dir, nil, "", "ensure", "exec", "/bin/sh -c 'echo $GREETING $(pwd) > "+out+"; exit 3'",
			"--returns", "3", "-e", "GREETING=hi", "--cwd", "/tmp", "--alias", "greet")
		wantLine(t, r, 0, "WARN  exec#greet (alias) changed")
		if got := read(t, out); got != "hi /tmp\n" {
			t.Fatalf("got %q", got)
		}
	})
	t.Run("--if and --unless", func(t *testing.T) {
		r := ccmIn(t, dir, nil, "", "ensure", "exec", "/bin/false", "--if", "1 == 2")
		wantLine(t, r, 0, "WARN  exec#/bin/false skipped")
		r = ccmIn(t, dir, nil, "", "ensure", "exec", "/bin/false", "--unless", "true")
		wantLine(t, r, 0, "WARN  exec#/bin/false skipped")
	})
	t.Run("--exec-if and --exec-unless guards", func(t *testing.T) {
		r := ccmIn(t, dir, nil, "", "ensure", "exec", "/bin/false", "--exec-if", "/bin/false")
		wantLine(t, r, 0, "INFO  exec#/bin/false stable")
		r = ccmIn(t, dir, nil, "", "ensure", "exec", "/bin/false", "--exec-unless", "/bin/true")
		wantLine(t, r, 0, "INFO  exec#/bin/false stable")
	})
	t.Run("--provider shell", func(t *testing.T) {
		out := filepath.Join(dir, "shell")
		r := ccmIn(t, dir, nil, "", "ensure", "exec", "echo piped | cat > "+out, "--provider", "shell")
		wantLine(t, r, 0, "WARN  exec#echo piped")
		if got := read(t, out); got != "piped\n" {
			t.Fatalf("got %q", got)
		}
	})
}

func TestEnsureWithData(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".hiera"), "data:\n  package: zsh\n  motd: from hiera\n")
	write(t, filepath.Join(dir, ".env"), "GREETING=\"from .env\"\n")
	out := filepath.Join(dir, "out")
	t.Run("./.hiera and ./.env are read by default", func(t *testing.T) {
		r := ccmIn(t, dir, nil, "", "ensure", "file", out, "--content", `{{ lookup("data.motd") }}, {{ lookup("environ.GREETING") }}`)
		wantLine(t, r, 0, "WARN  file#"+out+" changed")
		if got := read(t, out); got != "from hiera, from .env" {
			t.Fatalf("got %q", got)
		}
	})
	t.Run("the name is templated", func(t *testing.T) {
		r := ccmIn(t, dir, nil, "", "ensure", "--noop", "package", `{{ lookup("data.package") }}-ccm-fixture`, "5.8")
		if !strings.Contains(r.stdout, "package#zsh-ccm-fixture ") {
			t.Fatalf("output %q, stderr %q", r.stdout, r.stderr)
		}
	})
	t.Run("--hiera names another file", func(t *testing.T) {
		other := filepath.Join(dir, "other.yaml")
		write(t, other, "data: {motd: other}\n")
		r := ccmIn(t, dir, nil, "", "ensure", "file", out, "--content", `{{ lookup("data.motd") }}`, "--hiera", other)
		wantLine(t, r, 0, "WARN  file#"+out+" changed")
		if got := read(t, out); got != "other" {
			t.Fatalf("got %q", got)
		}
	})
}

func TestEnsurePackageNoop(t *testing.T) {
	if _, err := exec.LookPath("dpkg-query"); err != nil {
		t.Skip("needs dpkg-query")
	}
	// upstream's docs: ccm ensure package zsh 5.8; a fixture name that no
	// repository has, in noop, so nothing is installed.
	r := ccmIn(t, t.TempDir(), nil, "", "ensure", "--noop", "package", "ccm-fixture-none", "5.8")
	wantLine(t, r, 0, "WARN  package#ccm-fixture-none changed ensure=5.8")
	if !strings.Contains(r.stdout, `noop="Would have installed version 5.8"`) || !strings.Contains(r.stdout, "provider=apt") {
		t.Fatalf("got %q", r.stdout)
	}
}

func TestEnsureHelpComesFromDeclarations(t *testing.T) {
	r := ccm(t, "ensure", "exec", "--help")
	for _, want := range []string{"--creates", "--returns", "--timeout", "--cwd", "-e, --environment", "--path", "--refresh-only",
		"-S, --subscribe", "--logoutput", "--exec-if", "--exec-unless", "--alias", "--provider", "--if", "--unless", "--require", "-R, --registration"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("ccm ensure exec --help lacks %s", want)
		}
	}
	for typ, want := range map[string]string{"file": "NAME [ENSURE]", "archive": "NAME [URL]", "scaffold": "NAME [SOURCE] [ENSURE]", "pkg": "NAME [ENSURE]", "svc": "--disable"} {
		if r := ccm(t, "ensure", typ, "--help"); !strings.Contains(r.stdout, want) {
			t.Errorf("ccm ensure %s --help lacks %s:\n%s", typ, want, r.stdout)
		}
	}
}

func TestGlobalFlags(t *testing.T) {
	if r := ccm(t, "--version"); r.code != 0 || !strings.HasPrefix(r.stdout, "ccm version ") {
		t.Fatalf("--version: %+v", r)
	}
	dir := t.TempDir()
	f := manifest(t, dir, "ccm:\n  resources:\n    - exec:\n        - /bin/true: {}\n")
	if r := ccm(t, "--debug", "run", f); r.code != 0 || !strings.Contains(r.stderr, "manifests compiled") {
		t.Fatalf("--debug logs nothing at debug level: %+v", r)
	}
	if r := ccm(t, "--debug", "--log-level", "warn", "run", f); r.code != 2 {
		t.Fatalf("--debug with --log-level warn: %+v", r)
	}
	if r := ccm(t, "--info", "validate", f); r.code != 0 {
		t.Fatalf("--info: %+v", r)
	}
}

// TestReaderGoneIsQuiet: a one-shot command whose stdout reader left
// (ccm schema manifest | head) exits 1 without an error message.
func TestReaderGoneIsQuiet(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer w.Close()
	cmd := exec.Command(bin, "schema", "manifest")
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || errb.Len() != 0 {
		t.Fatalf("got %v, stderr %q; want exit 1 and nothing on stderr", err, errb.String())
	}
}

func TestEnsureArchiveAndScaffold(t *testing.T) {
	dir := t.TempDir()
	t.Run("upstream's docs: archive with --url --extract-parent --creates", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(tarGz(t, "app/bin/app", "#!/bin/sh\n")) }))
		defer srv.Close()
		name := filepath.Join(dir, "app.tar.gz")
		args := []string{"ensure", "archive", name, "--url", srv.URL + "/app.tar.gz", "--extract-parent", filepath.Join(dir, "opt"),
			"--creates", filepath.Join(dir, "opt/app/bin/app"), "--cleanup"}
		r := ccmIn(t, dir, nil, "", args...)
		wantLine(t, r, 0, "WARN  archive#"+name+" changed ensure=present")
		if read(t, filepath.Join(dir, "opt/app/bin/app")) != "#!/bin/sh\n" {
			t.Fatal("not extracted")
		}
		wantLine(t, ccmIn(t, dir, nil, "", args...), 0, "INFO  archive#"+name+" stable")
	})
	t.Run("upstream's docs: scaffold NAME SOURCE --engine --post", func(t *testing.T) {
		write(t, filepath.Join(dir, "templates/app/app.conf"), "port = [[ data.port ]]\n")
		write(t, filepath.Join(dir, "templates/app/run.sh"), "#!/bin/sh\n")
		write(t, filepath.Join(dir, ".hiera"), "data: {port: 8080}\n")
		target := filepath.Join(dir, "etc/app")
		r := ccmIn(t, dir, nil, "", "ensure", "scaffold", target, "templates/app", "--engine", "jet", "--purge", "--post", "*.sh=chmod 0755 {}")
		wantLine(t, r, 0, "WARN  scaffold#"+target+" changed ensure=present")
		if got := read(t, filepath.Join(target, "app.conf")); got != "port = 8080\n" {
			t.Fatalf("rendered %q", got)
		}
		if _, _, mode := owner(t, filepath.Join(target, "run.sh")); mode.Perm() != 0o755 {
			t.Fatalf("post command not run: %v", mode)
		}
	})
}

// tarGz is a gzipped tar holding one file.
func tarGz(t *testing.T, name, content string) []byte {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(content)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	tw.Write([]byte(content))
	tw.Close()
	gz.Close()
	return b.Bytes()
}

// TestSessions replays upstream's docs: a script that installs, writes a
// config and restarts a service in one session, with exec standing in
// for the package and the service.
func TestSessions(t *testing.T) {
	dir := t.TempDir()
	r := ccmIn(t, dir, nil, "", "session", "new", "--directory", filepath.Join(dir, "session"))
	if r.code != 0 || r.stdout != "export CCM_SESSION_STORE="+filepath.Join(dir, "session")+"\n" {
		t.Fatalf("session new: %+v", r)
	}
	env := []string{"CCM_SESSION_STORE=" + filepath.Join(dir, "session")}
	conf, restarts := filepath.Join(dir, "httpd.conf"), filepath.Join(dir, "restarts")
	restart := "/bin/sh -c 'echo restart >> " + restarts + "'"
	t.Run("require gates on an earlier call", func(t *testing.T) {
		wantLine(t, ccmIn(t, dir, env, "", "ensure", "exec", "/bin/true", "--alias", "install"), 0, "WARN  exec#install (alias) changed")
		r := ccmIn(t, dir, env, "", "ensure", "file", conf, "--content", "v1", "--require", "exec#install")
		wantLine(t, r, 0, "WARN  file#"+conf+" changed")
	})
	t.Run("subscribe refreshes after a change", func(t *testing.T) {
		r := ccmIn(t, dir, env, "", "ensure", "exec", restart, "--refresh-only", "--subscribe", "file#"+conf)
		wantLine(t, r, 0, "WARN  exec#"+restart+" refreshed")
		if got := read(t, restarts); got != "restart\n" {
			t.Fatalf("restarts %q", got)
		}
	})
	t.Run("no refresh when the subscribed resource was stable", func(t *testing.T) {
		wantLine(t, ccmIn(t, dir, env, "", "ensure", "file", conf, "--content", "v1"), 0, "INFO  file#"+conf+" stable")
		r := ccmIn(t, dir, env, "", "ensure", "exec", restart, "--refresh-only", "--subscribe", "file#"+conf)
		wantLine(t, r, 0, "INFO  exec#"+restart+" stable")
		if got := read(t, restarts); got != "restart\n" {
			t.Fatalf("restarts %q", got)
		}
	})
	t.Run("a failed requirement skips and exits 1", func(t *testing.T) {
		wantLine(t, ccmIn(t, dir, env, "", "ensure", "exec", "/bin/false"), 1, "ERROR exec#/bin/false failed")
		r := ccmIn(t, dir, env, "", "ensure", "file", filepath.Join(dir, "never"), "--require", "exec#/bin/false")
		wantLine(t, r, 1, "WARN  file#"+filepath.Join(dir, "never")+" skipped due to unmet requirement")
		if _, err := os.Stat(filepath.Join(dir, "never")); !os.IsNotExist(err) {
			t.Fatal("a skipped resource was applied")
		}
	})
	t.Run("a reference the session never saw is an error", func(t *testing.T) {
		r := ccmIn(t, dir, env, "", "ensure", "file", filepath.Join(dir, "never"), "--require", "package#nothere")
		if r.code != 2 || !strings.Contains(r.stderr, "no event of this session names it") {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("report --remove", func(t *testing.T) {
		r := ccmIn(t, dir, env, "", "session", "report", "--remove")
		for _, want := range []string{"Session Summary", "      Total Resources: 7", "     Stable Resources: 2", "    Changed Resources: 3",
			"     Failed Resources: 1", "    Skipped Resources: 1", "  Refreshed Resources: 1", "         Total Errors: 1", "             Run Time: "} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("report lacks %q:\n%s", want, r.stdout)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "session")); !os.IsNotExist(err) {
			t.Fatalf("session not removed: %v", err)
		}
	})
	t.Run("a directory with other files is not removed", func(t *testing.T) {
		other := filepath.Join(dir, "other")
		write(t, filepath.Join(other, "keep.txt"), "x")
		r := ccmIn(t, dir, nil, "", "session", "report", "--remove", "--session", other)
		if r.code != 1 || read(t, filepath.Join(other, "keep.txt")) != "x" {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("session new makes a temporary store usable with eval", func(t *testing.T) {
		r := ccmIn(t, dir, nil, "", "session", "new")
		store := strings.TrimPrefix(strings.TrimSpace(r.stdout), "export CCM_SESSION_STORE=")
		if fi, err := os.Stat(store); r.code != 0 || err != nil || !fi.IsDir() {
			t.Fatalf("%+v %v", r, err)
		}
		os.RemoveAll(store)
	})
}

// ensurable lists the registered types `ccm ensure` offers: all but the
// manifest-only ones.
func ensurable() []string {
	var out []string
	for _, name := range resources.TypeNames() {
		if t, _ := resources.Lookup(name); !t.ManifestOnly {
			out = append(out, name)
		}
	}
	return out
}

// inspectable lists the registered types `ccm status TYPE NAME` shows.
func inspectable() []string {
	var out []string
	for _, name := range resources.TypeNames() {
		if t, _ := resources.Lookup(name); t.Inspect != nil {
			out = append(out, name)
		}
	}
	return out
}
