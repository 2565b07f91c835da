package pkg_test

import (
	"errors"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/pkg/internal/debfixture"
	"github.com/reactive-ccm/ccm/resources/pkg/manager"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

const (
	fixA    = debfixture.Prefix + "a"
	fixConf = debfixture.Prefix + "conf"
	fixFail = debfixture.Prefix + "fail"
)

// newRepo serves ccm-fixture-a in three versions, and two packages that
// can be left half installed.
func newRepo(t *testing.T) *debfixture.Repo {
	return debfixture.New(t,
		debfixture.Package{Name: fixA, Version: "1.0-1"},
		debfixture.Package{Name: fixA, Version: "1.1-1"},
		debfixture.Package{Name: fixA, Version: "2.0-1"},
		debfixture.Package{Name: fixConf, Version: "1.0-1", Conffile: true},
		debfixture.Package{Name: fixFail, Version: "1.0-1", FailConfigure: true},
	)
}

// installA installs ccm-fixture-a at version with dpkg, as an
// administrator would by hand.
func installA(version string) func(*testing.T, *debfixture.Repo) {
	return func(t *testing.T, r *debfixture.Repo) {
		debfixture.Dpkg(t, false, "-i", r.Deb(t, fixA, version))
	}
}

func nothingInstalled(*testing.T, *debfixture.Repo) {}

func TestConvergeWithApt(t *testing.T) {
	r := newRepo(t)
	tests := []struct {
		name        string
		setup       func(*testing.T, *debfixture.Repo)
		ensure      string
		wantBefore  string
		wantAfter   string
		wantApplied bool
	}{
		{"present installs the candidate", nothingInstalled, "present", "absent", "2.0-1", true},
		{"present keeps any installed version", installA("1.0-1"), "present", "1.0-1", "1.0-1", false},
		{"a version installs that version", nothingInstalled, "1.1-1", "absent", "1.1-1", true},
		{"a newer version upgrades", installA("1.0-1"), "1.1-1", "1.0-1", "1.1-1", true},
		{"an older version downgrades", installA("2.0-1"), "1.0-1", "2.0-1", "1.0-1", true},
		{"the installed version is left alone", installA("1.1-1"), "1.1-1", "1.1-1", "1.1-1", false},
		{"latest installs the candidate", nothingInstalled, "latest", "absent", "2.0-1", true},
		{"latest upgrades an older version", installA("1.0-1"), "latest", "1.0-1", "2.0-1", true},
		{"latest leaves the candidate alone", installA("2.0-1"), "latest", "2.0-1", "2.0-1", false},
		{"absent removes", installA("1.1-1"), "absent", "1.1-1", "absent", true},
		{"absent leaves an absent package alone", nothingInstalled, "absent", "absent", "absent", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debfixture.Purge(t)
			tt.setup(t, r)
			inst := resourcetest.MustBuild(t, "package", fixA, "ensure: "+tt.ensure, t.TempDir())
			if inst.Provider != "apt" {
				t.Fatalf("provider = %q, want apt", inst.Provider)
			}
			out := resourcetest.Converge(t.Context(), t, inst.Resource, false, false)
			if out.Before.Ensure != tt.wantBefore || out.After.Ensure != tt.wantAfter || out.Applied != tt.wantApplied {
				t.Errorf("converge: before %q after %q applied %v; want %q, %q, %v",
					out.Before.Ensure, out.After.Ensure, out.Applied, tt.wantBefore, tt.wantAfter, tt.wantApplied)
			}
			if out.Applied && !out.Change.Changed {
				t.Error("applied but not reported as changed")
			}
			if v, _ := debfixture.Status(t, fixA); ensureOrAbsent(v) != tt.wantAfter {
				t.Errorf("dpkg has %q, want %q", v, tt.wantAfter)
			}
		})
	}
}

func ensureOrAbsent(v string) string {
	if v == "" {
		return "absent"
	}
	return v
}

func TestHalfInstalledPackagesAreAbsentAndRepaired(t *testing.T) {
	r := newRepo(t)
	tests := []struct {
		name       string
		pkg        string
		setup      func(*testing.T)
		wantStatus string
	}{
		{"removed with its configuration left", fixConf, func(t *testing.T) {
			debfixture.Dpkg(t, false, "-i", r.Deb(t, fixConf, "1.0-1"))
			debfixture.Dpkg(t, false, "-r", fixConf)
		}, "config-files"},
		{"unpacked but not configured", fixA, func(t *testing.T) {
			debfixture.Dpkg(t, false, "--unpack", r.Deb(t, fixA, "1.1-1"))
		}, "unpacked"},
		{"configuration failed", fixFail, func(t *testing.T) {
			r.FailConfigure(t, fixFail, true)
			debfixture.Dpkg(t, true, "-i", r.Deb(t, fixFail, "1.0-1"))
			r.FailConfigure(t, fixFail, false)
		}, "half-configured"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debfixture.Purge(t)
			tt.setup(t)
			if _, st := debfixture.Status(t, tt.pkg); st != tt.wantStatus {
				t.Fatalf("setup left dpkg status %q, want %q", st, tt.wantStatus)
			}
			inst := resourcetest.MustBuild(t, "package", tt.pkg, "ensure: present", t.TempDir())
			out := resourcetest.Converge(t.Context(), t, inst.Resource, false, false)
			if out.Before.Ensure != "absent" || out.Before.Desired {
				t.Errorf("a %s package checked as %+v, want absent and not desired", tt.wantStatus, out.Before)
			}
			if _, st := debfixture.Status(t, tt.pkg); st != "installed" {
				t.Errorf("after converging, dpkg status %q, want installed", st)
			}
		})
	}
}

func TestNoopReportsAndChangesNothing(t *testing.T) {
	r := newRepo(t)
	tests := []struct {
		name   string
		setup  func(*testing.T, *debfixture.Repo)
		ensure string
		want   string
	}{
		{"install any version", nothingInstalled, "present", "Would have installed version present"},
		{"install latest", nothingInstalled, "latest", "Would have installed latest"},
		{"upgrade to latest", installA("1.0-1"), "latest", "Would have upgraded to latest"},
		{"install a version", nothingInstalled, "1.1-1", "Would have installed version 1.1-1"},
		{"upgrade", installA("1.0-1"), "1.1-1", "Would have upgraded to 1.1-1"},
		{"downgrade", installA("2.0-1"), "1.0-1", "Would have downgraded to 1.0-1"},
		{"uninstall", installA("1.0-1"), "absent", "Would have uninstalled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debfixture.Purge(t)
			tt.setup(t, r)
			before, _ := debfixture.Status(t, fixA)
			inst := resourcetest.MustBuild(t, "package", fixA, "ensure: "+tt.ensure, t.TempDir())
			out := resourcetest.Converge(t.Context(), t, inst.Resource, false, true)
			if !out.Change.Changed || out.Change.NoopMessage != tt.want {
				t.Errorf("noop change = %+v, want changed with %q", out.Change, tt.want)
			}
			if after, _ := debfixture.Status(t, fixA); after != before {
				t.Errorf("noop changed dpkg: %q became %q", before, after)
			}
		})
	}
}

func TestAptRunsTheDesignedCommands(t *testing.T) {
	r := newRepo(t)
	debfixture.Purge(t)
	for _, ensure := range []string{"present", "absent", "1.0-1", "latest", "1.1-1", "absent"} {
		inst := resourcetest.MustBuild(t, "package", fixA, "ensure: "+ensure, t.TempDir())
		resourcetest.Converge(t.Context(), t, inst.Resource, false, false)
	}
	// apt records the program as it was started: by its path in
	// command.DefaultPath.
	want := []string{
		"apt-get install -y -q -o DPkg::Options::=--force-confold " + fixA,
		"apt-get -q -y remove " + fixA,
		"apt-get install -y -q -o DPkg::Options::=--force-confold --allow-downgrades " + fixA + "=1.0-1",
		"apt-get install -y -q -o DPkg::Options::=--force-confold " + fixA + "=2.0-1",
		"apt-get install -y -q -o DPkg::Options::=--force-confold --allow-downgrades " + fixA + "=1.1-1",
		"apt-get -q -y remove " + fixA,
	}
	for i := range want {
		want[i] = "/usr/bin/" + want[i]
	}
	if got := r.History(t); !reflect.DeepEqual(got, want) {
		t.Errorf("apt history:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestUnavailableVersionFailsWithAptsReason(t *testing.T) {
	newRepo(t)
	debfixture.Purge(t)
	inst := resourcetest.MustBuild(t, "package", fixA, "ensure: 9.9-1", t.TempDir())
	_, err := resources.Converge(t.Context(), inst.Resource, false, false)
	if !errors.Is(err, manager.ErrCommandFailed) || !strings.Contains(err.Error(), "Version '9.9-1' for '"+fixA+"' was not found") {
		t.Errorf("converge error = %v, want apt's reason", err)
	}
}

func TestLatestWithoutCandidateSaysWhatToDo(t *testing.T) {
	newRepo(t)
	debfixture.Purge(t)
	inst := resourcetest.MustBuild(t, "package", debfixture.Prefix+"unknown", "ensure: latest", t.TempDir())
	_, err := resources.Converge(t.Context(), inst.Resource, false, false)
	if err == nil || !strings.Contains(err.Error(), "never runs apt-get update") {
		t.Errorf("converge error = %v, want one explaining that apt knows no version", err)
	}
}

func TestUnusableProviderFailsWhenRun(t *testing.T) {
	if _, err := exec.LookPath("dnf"); err == nil {
		t.Skip("dnf is installed here")
	}
	inst := resourcetest.MustBuild(t, "package", "zsh", "{ensure: present, provider: dnf}", t.TempDir())
	if _, err := inst.Resource.Check(t.Context()); !errors.Is(err, resources.ErrNoSuitableProvider) || !strings.Contains(err.Error(), "package#zsh") {
		t.Errorf("Check error = %v, want ErrNoSuitableProvider naming the resource", err)
	}
}
