package dnf

import (
	"errors"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

func TestStatusQueriesAllTrackedPackagesAtOnce(t *testing.T) {
	p := newProvider(t, recorded{line: rpmQuery("glibc nosuch vim-enhanced zsh"), stdout: "rpm_q_batch.txt", exit: 1})
	want := map[string]string{
		"glibc":        "2.34-100.el9_4.2",
		"nosuch":       "",
		"vim-enhanced": "2:9.0.2081-1.fc39",
		"zsh":          "5.8-9.el9",
	}
	for name := range want {
		p.Track(name)
	}
	for name, v := range want {
		got, err := p.Status(t.Context(), name)
		if err != nil {
			t.Fatalf("Status(%s): %v", name, err)
		}
		if got != v {
			t.Errorf("Status(%s) = %q, want %q", name, got, v)
		}
	}
}

// answered fails the test unless a query (what) returned want or, when
// wantErr is set, failed as a command whose error says it.
func answered(t *testing.T, what, got string, err error, want, wantErr string) {
	t.Helper()
	if wantErr != "" {
		if !errors.Is(err, manager.ErrCommandFailed) || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s error = %v, want one saying %q", what, err, wantErr)
		}
		return
	}
	if err != nil || got != want {
		t.Errorf("%s = %q, %v; want %q", what, got, err, want)
	}
}

func TestStatus(t *testing.T) {
	tests := []struct {
		name    string
		rec     recorded
		want    string
		wantErr string
	}{
		{"installed", recorded{line: rpmQuery("zsh"), stdout: "rpm_q_zsh.txt"}, "5.8-9.el9", ""},
		{"not installed", recorded{line: rpmQuery("zsh"), stdout: "rpm_q_absent.txt", exit: 1}, "", ""},
		{"a broken database", recorded{line: rpmQuery("zsh"), stderr: "rpm_q_dberror_stderr.txt", exit: 1}, "", "cannot open Packages database"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := newProvider(t, tt.rec).Status(t.Context(), "zsh")
			answered(t, "Status(zsh)", got, err, tt.want, tt.wantErr)
		})
	}
}

func TestNewer(t *testing.T) {
	tests := []struct {
		name    string
		pkg     string
		rec     recorded
		want    string
		wantErr string
	}{
		{"up to date", "zsh", recorded{line: "dnf check-update -q zsh"}, "", ""},
		{"update available", "zsh", recorded{line: "dnf check-update -q zsh", stdout: "dnf_check_update_zsh.txt", exit: 100}, "5.8-10.el9", ""},
		{"update with an epoch, obsoletes ignored", "vim-enhanced", recorded{line: "dnf check-update -q vim-enhanced", stdout: "dnf_check_update_obsoletes.txt", exit: 100}, "2:9.0.2120-1.fc39", ""},
		{"repositories unreachable", "zsh", recorded{line: "dnf check-update -q zsh", stderr: "dnf_check_update_offline_stderr.txt", exit: 1}, "", "Failed to download metadata"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := newProvider(t, tt.rec).Newer(t.Context(), tt.pkg, "5.8-9.el9")
			answered(t, "Newer("+tt.pkg+")", got, err, tt.want, tt.wantErr)
		})
	}
}

func TestChangesRunTheDesignedCommands(t *testing.T) {
	zsh := func(op manager.Op, version string) manager.Change {
		return manager.Change{Op: op, Name: "zsh", Version: version}
	}
	tests := []struct {
		name string
		cs   []manager.Change
		rec  []recorded
	}{
		{"install any version", []manager.Change{zsh(manager.Install, "")},
			[]recorded{{line: "dnf install -y zsh", stdout: "dnf_install_zsh.txt"}}},
		{"install the latest version", []manager.Change{zsh(manager.Install, manager.Latest)},
			[]recorded{{line: "dnf install -y zsh", stdout: "dnf_install_zsh.txt"}}},
		{"install an exact version", []manager.Change{zsh(manager.Install, "5.8-9.el9")},
			[]recorded{{line: "dnf install -y zsh-5.8-9.el9", stdout: "dnf_install_zsh.txt"}}},
		{"upgrade to the latest version", []manager.Change{zsh(manager.Upgrade, manager.Latest)},
			[]recorded{{line: "dnf upgrade -y zsh", stdout: "dnf_install_zsh.txt"}}},
		{"upgrade to an exact version", []manager.Change{zsh(manager.Upgrade, "5.8-9.el9")},
			[]recorded{{line: "dnf install -y zsh-5.8-9.el9", stdout: "dnf_install_zsh.txt"}}},
		{"downgrade", []manager.Change{zsh(manager.Downgrade, "5.8-7.el9")},
			[]recorded{{line: "dnf downgrade -y zsh-5.8-7.el9", stdout: "dnf_downgrade_zsh.txt"}}},
		{"uninstall", []manager.Change{zsh(manager.Uninstall, "")},
			[]recorded{{line: "dnf remove -y zsh", stdout: "dnf_remove_zsh.txt"}}},
		{"installs and exact upgrades share one run", []manager.Change{
			zsh(manager.Install, ""), {Op: manager.Upgrade, Name: "vim", Version: "9.0-1.el9"}, {Op: manager.Install, Name: "tmux", Version: manager.Latest}},
			[]recorded{{line: "dnf install -y zsh vim-9.0-1.el9 tmux", stdout: "dnf_install_zsh.txt"}}},
		{"uninstalls share one run", []manager.Change{zsh(manager.Uninstall, ""), {Op: manager.Uninstall, Name: "vim"}},
			[]recorded{{line: "dnf remove -y zsh vim", stdout: "dnf_remove_zsh.txt"}}},
		{"a different command starts a run of its own, in order", []manager.Change{
			zsh(manager.Install, ""), {Op: manager.Upgrade, Name: "vim", Version: manager.Latest}, {Op: manager.Upgrade, Name: "tmux", Version: manager.Latest},
			{Op: manager.Downgrade, Name: "git", Version: "2.0-1.el9"}, {Op: manager.Install, Name: "jq"}},
			[]recorded{
				{line: "dnf install -y zsh", stdout: "dnf_install_zsh.txt"},
				{line: "dnf upgrade -y vim tmux", stdout: "dnf_install_zsh.txt"},
				{line: "dnf downgrade -y git-2.0-1.el9", stdout: "dnf_downgrade_zsh.txt"},
				{line: "dnf install -y jq", stdout: "dnf_install_zsh.txt"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := newProvider(t, tt.rec...).Change(t.Context(), tt.cs...); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestFailedInstallSaysWhy(t *testing.T) {
	p := newProvider(t, recorded{line: "dnf install -y nosuch", stdout: "dnf_install_nomatch.txt", stderr: "dnf_install_nomatch_stderr.txt", exit: 1})
	err := p.Change(t.Context(), manager.Change{Op: manager.Install, Name: "nosuch"})
	want := "package manager command failed: dnf install -y nosuch exited 1: Error: Unable to find a match: nosuch"
	if !errors.Is(err, manager.ErrCommandFailed) || err.Error() != want {
		t.Errorf("Change error = %v\nwant %s", err, want)
	}
}

func TestAFailedRunStopsTheChanges(t *testing.T) {
	p := newProvider(t, recorded{line: "dnf remove -y nosuch zsh", stdout: "dnf_install_nomatch.txt", stderr: "dnf_install_nomatch_stderr.txt", exit: 1})
	err := p.Change(t.Context(), manager.Change{Op: manager.Uninstall, Name: "nosuch"}, manager.Change{Op: manager.Uninstall, Name: "zsh"},
		manager.Change{Op: manager.Install, Name: "vim"})
	if !errors.Is(err, manager.ErrCommandFailed) {
		t.Errorf("Change error = %v, want the failed run's", err)
	}
}

func TestWatchFollowsTheRpmDatabase(t *testing.T) {
	w := New(Options{}).Watch()
	if len(w.Trees) != 1 || w.Trees[0] != DBDir {
		t.Errorf("Watch() = %+v, want the tree %s", w, DBDir)
	}
}
