// Package debfixture builds throw-away Debian packages named ccm-fixture-*,
// serves them from a private apt repository, and purges every one of them
// from dpkg's database when the test ends, for tests that drive the real
// dpkg and apt as root.
//
// The host's apt sources, lists, caches, preferences and logs are never
// touched: New writes an apt configuration that moves all of them under
// the test's temporary directory and points APT_CONFIG at it for the rest
// of the test. Package files land under the temporary directory too.
package debfixture

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources/internal/command"
)

// Prefix starts the name of every fixture package; nothing else is ever
// installed or removed.
const Prefix = "ccm-fixture-"

// toolTimeout bounds every dpkg and apt run of the fixture.
const toolTimeout = 10 * time.Minute

// Package is one version of a fixture package.
type Package struct {
	// Name must start with Prefix.
	Name    string
	Version string
	// Conffile ships a configuration file, so that removing the package
	// leaves it in dpkg's config-files state.
	Conffile bool
	// FailConfigure ships a postinst that fails while the repository's
	// switch for the package is on (see Repo.FailConfigure), leaving the
	// package half-configured.
	FailConfigure bool
}

// Repo is a private apt repository of fixture packages.
type Repo struct {
	dir  string
	debs map[string]string
}

// New skips the test unless it runs as root with dpkg and apt, waits for
// other test binaries' fixtures to be gone (a host-wide lock held until
// the test ends), purges fixture packages an earlier, interrupted run left
// behind, builds pkgs,
// indexes them with dpkg-scanpackages -m, runs apt-get update against the
// private configuration only, and sets APT_CONFIG to it. Every fixture
// package is purged again when the test ends, whether it passed or not.
func New(t testing.TB, pkgs ...Package) *Repo {
	t.Helper()
	skipUnlessUsable(t)
	lock(t)
	Purge(t)
	t.Cleanup(func() { Purge(t) })
	r := &Repo{dir: t.TempDir(), debs: map[string]string{}}
	for _, p := range pkgs {
		r.build(t, p)
	}
	r.index(t)
	t.Setenv("APT_CONFIG", r.writeAptConfig(t))
	run(t, "apt-get", "update", "-q")
	return r
}

// NewNumbered is New serving n packages at 1.0-1, named after name and
// numbered from 000 (ccm-fixture-name-000, ...), whose names it returns.
func NewNumbered(t testing.TB, name string, n int) ([]string, *Repo) {
	t.Helper()
	names := make([]string, n)
	pkgs := make([]Package, n)
	for i := range n {
		names[i] = fmt.Sprintf("%s%s-%03d", Prefix, name, i)
		pkgs[i] = Package{Name: names[i], Version: "1.0-1"}
	}
	return names, New(t, pkgs...)
}

func skipUnlessUsable(t testing.TB) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: installs ccm-fixture-* packages into dpkg's database")
	}
	for _, tool := range []string{"dpkg", "dpkg-deb", "dpkg-query", "dpkg-scanpackages", "apt-get", "apt-cache"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s (packages dpkg, dpkg-dev and apt; `make deps` installs them)", tool)
		}
	}
}

// Deb returns the path of the built .deb of name at version.
func (r *Repo) Deb(t testing.TB, name, version string) string {
	t.Helper()
	p, ok := r.debs[name+"_"+version]
	if !ok {
		t.Fatalf("debfixture: %s %s was not built", name, version)
	}
	return p
}

// Conffile returns the path of the configuration file a Package with
// Conffile installs; its directory exists only while the package is
// installed.
func (r *Repo) Conffile(name string) string {
	return filepath.Join(r.dir, "root", name+".conf")
}

// FailConfigure turns the failing postinst of name on or off.
func (r *Repo) FailConfigure(t testing.TB, name string, fail bool) {
	t.Helper()
	marker := r.failMarker(name)
	if !fail {
		if err := os.Remove(marker); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return
	}
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

func (r *Repo) failMarker(name string) string {
	return filepath.Join(r.dir, "fail-configure-"+name)
}

// Dpkg runs dpkg with args, as an administrator would by hand, and fails
// the test when it fails, unless mayFail.
func Dpkg(t testing.TB, mayFail bool, args ...string) {
	t.Helper()
	res := run(t, "dpkg", args...)
	if res.ExitCode != 0 && !mayFail {
		t.Fatalf("dpkg %s exited %d: %s", strings.Join(args, " "), res.ExitCode, res.Stderr)
	}
}

// Status returns what dpkg records for name: its version and its status
// ("installed", "config-files", "half-configured"...), or "" and
// "not-installed" when dpkg does not know it.
func Status(t testing.TB, name string) (version, status string) {
	t.Helper()
	res := run(t, "dpkg-query", "-W", "-f=${Version} ${db:Status-Status}", name)
	if res.ExitCode != 0 {
		return "", "not-installed"
	}
	version, status, _ = strings.Cut(string(res.Stdout), " ")
	return version, status
}

// History returns the command lines apt-get recorded in the private
// history log, oldest first: the commands exactly as the provider ran them.
func (r *Repo) History(t testing.TB) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, "apt", "log", "history.log"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "Commandline: "); ok {
			out = append(out, line)
		}
	}
	return out
}

// Purge removes every ccm-fixture-* package dpkg knows, with its files.
func Purge(t testing.TB) {
	t.Helper()
	res := run(t, "dpkg-query", "-W", "-f=${Package}\n", Prefix+"*")
	names := strings.Fields(string(res.Stdout))
	if len(names) == 0 {
		return
	}
	for _, n := range names {
		if !strings.HasPrefix(n, Prefix) {
			t.Fatalf("debfixture: refusing to purge %q, which is not a fixture package", n)
		}
	}
	if res := run(t, "dpkg", append([]string{"--purge"}, names...)...); res.ExitCode != 0 {
		t.Errorf("purging fixture packages %v: dpkg exited %d: %s", names, res.ExitCode, res.Stderr)
	}
}

// run runs a tool non-interactively with this process's APT_CONFIG and
// fails the test when it cannot start.
func run(t testing.TB, name string, args ...string) command.Result {
	t.Helper()
	return runIn(t, "", name, args...)
}

// runIn is run in the working directory dir.
func runIn(t testing.TB, dir, name string, args ...string) command.Result {
	t.Helper()
	env := []string{"DEBIAN_FRONTEND=noninteractive"}
	if c, ok := os.LookupEnv("APT_CONFIG"); ok {
		env = append(env, "APT_CONFIG="+c)
	}
	// Not cancelled with the test, so that cleanup can still purge.
	ctx := context.WithoutCancel(t.Context())
	res, err := command.Run(ctx, command.Cmd{Name: name, Args: args, Env: env, Dir: dir, Timeout: toolTimeout})
	if err != nil {
		t.Fatalf("running %s %s: %v", name, strings.Join(args, " "), err)
	}
	return res
}

func check(t testing.TB, res command.Result, what string) {
	t.Helper()
	if res.ExitCode != 0 {
		t.Fatalf("%s: exit %d: %s%s", what, res.ExitCode, res.Stdout, res.Stderr)
	}
}

func writeFile(t testing.TB, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(fmt.Errorf("debfixture: %w", err))
	}
}
