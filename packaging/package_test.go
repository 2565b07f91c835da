// Package packaging tests the release `make dist` makes, built by its own
// script for this machine's architecture: the archive and its checksum,
// the .rpm's file list, and the .deb installed, run as a service, made to
// repair drift and removed, inside a private systemd (systemdtest) whose
// /usr, /etc and /var are overlays, so the host's files and package
// database are never touched.
package packaging

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/watchers/systemd/systemdtest"
)

// The release for this machine, made once by TestMain.
var (
	dist, version, commit string
	arch                  = map[string]string{"amd64": "amd64", "arm64": "arm64", "arm": "armv7", "386": "386", "riscv64": "riscv64"}[runtime.GOARCH]
)

func TestMain(m *testing.M) {
	code, err := run(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}

func run(m *testing.M) (int, error) {
	if arch == "" {
		fmt.Println("packaging: no release is made for", runtime.GOARCH)
		return m.Run(), nil
	}
	tmp, err := os.MkdirTemp("", "ccm-dist-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	dist = filepath.Join(tmp, "dist")
	out, err := exec.Command("./version.sh").Output()
	if err != nil {
		return 0, fmt.Errorf("version.sh: %w", err)
	}
	version = strings.TrimSpace(string(out))
	if out, err = exec.Command("git", "rev-parse", "HEAD").Output(); err != nil {
		return 0, fmt.Errorf("git rev-parse HEAD: %w", err)
	}
	commit = strings.TrimSpace(string(out))
	cmd := exec.Command("./dist.sh", dist, arch)
	cmd.Env = append(os.Environ(), "VERSION="+version, "COMMIT="+commit)
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("dist.sh %s %s: %w\n%s", dist, arch, err, out)
	}
	return systemdtest.Main(m), nil
}

// sh runs a command on the host and returns its standard output.
func sh(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), name, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return string(out)
}

func one(t *testing.T, glob string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dist, glob))
	if len(m) != 1 {
		t.Fatalf("%s in %s: %v", glob, dist, m)
	}
	return m[0]
}

func TestArchive(t *testing.T) {
	if arch == "" {
		t.Skip("no release for " + runtime.GOARCH)
	}
	sums := sh(t, dist, "sha256sum", "-c", "SHA256SUMS")
	if strings.Count(sums, ": OK\n") != 3 {
		t.Fatalf("SHA256SUMS should cover the archive, the .deb and the .rpm:\n%s", sums)
	}
	name := "ccm-" + version + "-linux-" + arch
	list := strings.Fields(sh(t, dist, "tar", "-tzf", name+".tar.gz"))
	for _, want := range []string{"ccm", "README.md", "ccm-agent.service", "agent.yaml", "manifest.yaml",
		"man/man1/ccm.1.gz", "man/man1/ccm-run.1.gz", "man/man1/ccm-ensure-file.1.gz", "completions/ccm.bash"} {
		if !slices.Contains(list, name+"/"+want) {
			t.Errorf("%s.tar.gz lacks %s: %v", name, want, list)
		}
	}
	dir := t.TempDir()
	sh(t, dir, "tar", "-xzf", filepath.Join(dist, name+".tar.gz"))
	if runtime.GOARCH == "amd64" || runtime.GOARCH == arch {
		got := sh(t, dir, filepath.Join(dir, name, "ccm"), "--version")
		if want := "ccm version " + version + " (commit " + commit + ")\n"; got != want {
			t.Errorf("--version: %q, want %q", got, want)
		}
	}
}

// packaged is what both packages install, besides the man pages.
var packaged = []string{
	"/usr/bin/ccm", "/usr/lib/systemd/system/ccm-agent.service", "/etc/choria/ccm/agent.yaml",
	"/etc/choria/ccm/manifest.yaml", "/var/lib/ccm", "/usr/share/man/man1/ccm-run.1.gz",
	"/usr/share/bash-completion/completions/ccm", "/usr/share/fish/vendor_completions.d/ccm.fish",
}

func TestRPMContents(t *testing.T) {
	if arch == "" {
		t.Skip("no release for " + runtime.GOARCH)
	}
	if _, err := exec.LookPath("rpm"); err != nil {
		t.Skip("rpm not installed (.ci/test-deps.sh installs it)")
	}
	rpm := one(t, "*.rpm")
	files := strings.Fields(sh(t, "", "rpm", "-qlp", rpm))
	for _, want := range append(packaged, "/usr/share/zsh/site-functions/_ccm") {
		if !slices.Contains(files, want) {
			t.Errorf("rpm -qlp: no %s in %v", want, files)
		}
	}
	if got := sh(t, "", "rpm", "-qp", "--queryformat", "%{NAME} %{VERSION}", rpm); got != "ccm "+version {
		t.Errorf("rpm -qp: %q", got)
	}
	configs := strings.Fields(sh(t, "", "rpm", "-qcp", rpm))
	if !slices.Equal(configs, []string{"/etc/choria/ccm/agent.yaml", "/etc/choria/ccm/manifest.yaml"}) {
		t.Errorf("rpm -qcp: config files %v", configs)
	}
}

// overlay gives the namespace its own /usr, /etc and /var: overlays whose
// changes land in a tmpfs that only the namespace sees, and a fresh tmpfs
// on /etc/systemd/system again (the overlay would show the host's). The
// dpkg database is a copy, not an overlay: other tests install fixture
// packages on the host meanwhile, and an overlay whose lower layer changes
// under it answers ESTALE ("unable to install updated status of 'man-db':
// Stale file handle"). The namespace's end takes them all away.
const overlay = `set -eu
d=$(mktemp -d /tmp/ccm-pkg-XXXXXX)
mount -t tmpfs -o mode=0700 ccm-pkg "$d"
mkdir "$d/dpkg"
cp -a /var/lib/dpkg/. "$d/dpkg/"
for top in usr etc var; do
	mkdir "$d/$top" "$d/$top.work"
	mount -t overlay -o "lowerdir=/$top,upperdir=$d/$top,workdir=$d/$top.work" ccm-pkg-$top "/$top"
done
mount --bind "$d/dpkg" /var/lib/dpkg
mount -t tmpfs -o mode=0755 ccm-units /etc/systemd/system
echo "$d"`

func TestDebInstallRunRepairRemove(t *testing.T) {
	sd := systemdtest.Require(t)
	if _, err := exec.LookPath("dpkg"); err != nil {
		t.Skip("dpkg not installed")
	}
	ctx := t.Context()
	in := func(name string, args ...string) string {
		t.Helper()
		out, err := sd.Run(ctx, name, args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	upper := strings.TrimSpace(in("sh", "-c", overlay))
	t.Cleanup(func() { os.Remove(upper) })
	in("dpkg", "-i", one(t, "*.deb"))
	root := sd.Root()
	for _, p := range packaged {
		if _, err := os.Lstat(root + p); err != nil {
			t.Errorf("after dpkg -i: %v", err)
		}
	}
	if _, err := os.Stat("/etc/choria/ccm"); err == nil {
		t.Fatal("the package reached the host's /etc")
	}
	if got := strings.TrimSpace(in("man", "-w", "ccm-run")); got != "/usr/share/man/man1/ccm-run.1.gz" {
		t.Errorf("man -w ccm-run: %q", got)
	}

	managed := filepath.Join(t.TempDir(), "motd")
	// Before the directory goes: a running agent would write the file back.
	t.Cleanup(func() { sd.Systemctl(context.Background(), "stop", "ccm-agent.service") })
	manifest := fmt.Sprintf("ccm:\n  resources:\n    - file:\n        - %s:\n            ensure: present\n            content: \"packaged\\n\"\n            owner: root\n            group: root\n            mode: \"0644\"\n", managed)
	if err := os.WriteFile(root+"/etc/choria/ccm/manifest.yaml", []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	// Type=notify: enable --now returns once ccm said READY=1.
	in("systemctl", "enable", "--now", "ccm-agent.service")
	if got := strings.TrimSpace(in("systemctl", "is-active", "ccm.service")); got != "active" {
		t.Errorf("ccm.service (the alias) is %q", got)
	}
	if st := in("systemctl", "show", "--property=StatusText", "--value", "ccm-agent.service"); !strings.Contains(st, "1 converged") {
		t.Errorf("status text: %q", st)
	}
	if b, err := os.ReadFile(managed); err != nil || string(b) != "packaged\n" {
		t.Fatalf("not converged: %q %v", b, err)
	}
	waitRepair(t, sd, managed)
	if b, err := os.ReadFile(managed); err != nil || string(b) != "packaged\n" {
		t.Fatalf("not repaired: %q %v", b, err)
	}

	in("dpkg", "--purge", "ccm")
	if got := strings.TrimSpace(in("systemctl", "show", "--property=LoadState", "--value", "ccm-agent.service")); got != "not-found" {
		t.Errorf("after purge the unit is %q", got)
	}
	for _, p := range append(packaged, "/etc/choria/ccm") {
		if _, err := os.Lstat(root + p); err == nil {
			t.Errorf("%s left after dpkg --purge", p)
		}
	}
	if out, err := sd.Run(ctx, "dpkg", "-s", "ccm"); err == nil {
		t.Errorf("dpkg -s after purge: %s", out)
	}
}

// waitRepair follows the installed daemon's events, changes the managed
// file once the stream is live, and waits for the repair it triggers.
func waitRepair(t *testing.T, sd *systemdtest.Systemd, managed string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	follow := exec.CommandContext(ctx, "nsenter", "-t", fmt.Sprint(sd.PID), "-m", "-p", "ccm", "events", "--follow", "--json")
	// nsenter forks ccm into the namespace: end both, or the stream
	// stays open.
	follow.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	follow.Cancel = func() error { return syscall.Kill(-follow.Process.Pid, syscall.SIGKILL) }
	out, err := follow.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := follow.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); follow.Wait() }()
	lines := bufio.NewScanner(out)
	tampered := false
	for lines.Scan() {
		var ev struct {
			Name    string `json:"name"`
			Changed bool   `json:"changed"`
			Trigger string `json:"trigger"`
		}
		if json.Unmarshal(lines.Bytes(), &ev) != nil || ev.Name != managed {
			continue
		}
		if !tampered {
			// The startup convergence, from the daemon's history: the
			// stream is live, so the drift's repair will follow.
			if err := os.WriteFile(managed, []byte("tampered\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			tampered = true
			continue
		}
		if ev.Changed && ev.Trigger == "drift" {
			return
		}
	}
	t.Fatalf("no repair of %s seen (tampered: %v): %v", managed, tampered, lines.Err())
}
