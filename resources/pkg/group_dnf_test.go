package pkg

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/resources/pkg/dnf"
	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

// fakeDNF stands in for rpm and dnf, which cannot run here: a package is
// installed at a version-release, any known package can be installed at
// 1.0-1 or at the version asked for, and a dnf run that names an unknown
// package fails whole, changing nothing, as dnf's transactions do. Each
// change adds an entry to the database directory, as rpm would change it.
type fakeDNF struct {
	t         *testing.T
	db        string
	known     []string
	mu        sync.Mutex
	installed map[string]string
	dnfRuns   []string
	changes   int
}

var _ command.Runner = (*fakeDNF)(nil)

func (f *fakeDNF) Run(_ context.Context, c command.Cmd) (command.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c.Name == "rpm" {
		return f.query(c.Args[1 : len(c.Args)-2]), nil
	}
	f.dnfRuns = append(f.dnfRuns, manager.CommandLine(c))
	verb, specs := c.Args[0], c.Args[2:]
	for _, s := range specs {
		if name, _ := f.split(s); !slices.Contains(f.known, name) {
			return command.Result{ExitCode: 1, Stderr: []byte("Error: Unable to find a match: " + s + "\n")}, nil
		}
	}
	for _, s := range specs {
		name, version := f.split(s)
		if verb == "remove" {
			delete(f.installed, name)
		} else {
			f.installed[name] = version
		}
	}
	f.changes++
	if err := os.WriteFile(filepath.Join(f.db, fmt.Sprint("change-", f.changes)), nil, 0o644); err != nil {
		f.t.Fatal(err)
	}
	return command.Result{}, nil
}

// split parses a dnf argument, NAME or NAME-VERSION-RELEASE.
func (f *fakeDNF) split(spec string) (string, string) {
	for _, k := range f.known {
		if v, ok := strings.CutPrefix(spec, k+"-"); ok {
			return k, v
		}
	}
	return spec, "1.0-1"
}

func (f *fakeDNF) query(names []string) command.Result {
	var out strings.Builder
	missing := 0
	for _, n := range names {
		v, ok := f.installed[n]
		if !ok {
			fmt.Fprintf(&out, "package %s is not installed\n", n)
			missing++
			continue
		}
		version, release, _ := strings.Cut(v, "-")
		fmt.Fprintf(&out, "%s 0 %s %s noarch\n", n, version, release)
	}
	return command.Result{ExitCode: missing, Stdout: []byte(out.String())}
}

func TestGroupsGoToDnfTogether(t *testing.T) {
	tests := []struct {
		name      string
		installed map[string]string
		ensure    []string
		group     []string
		wantRuns  []string
		wantAfter map[string]string
		// wantFailed is the member whose error names it.
		wantFailed string
	}{
		{
			name: "installs and an exact version share one run", ensure: []string{"present", "2.0-1", "present"},
			group:     []string{"zsh", "vim", "tmux"},
			wantRuns:  []string{"dnf install -y zsh vim-2.0-1 tmux"},
			wantAfter: map[string]string{"zsh": "1.0-1", "vim": "2.0-1", "tmux": "1.0-1"},
		},
		{
			name: "removes share one run", installed: map[string]string{"zsh": "1.0-1", "vim": "1.0-1"},
			ensure: []string{"absent", "absent"}, group: []string{"zsh", "vim"},
			wantRuns: []string{"dnf remove -y zsh vim"}, wantAfter: map[string]string{},
		},
		{
			name: "an upgrade and a downgrade take their own commands", installed: map[string]string{"zsh": "1.0-1", "vim": "3.0-1"},
			ensure: []string{"2.0-1", "2.0-1"}, group: []string{"zsh", "vim"},
			wantRuns:  []string{"dnf install -y zsh-2.0-1", "dnf downgrade -y vim-2.0-1"},
			wantAfter: map[string]string{"zsh": "2.0-1", "vim": "2.0-1"},
		},
		{
			name: "a package dnf does not know fails alone", ensure: []string{"present", "present", "present"},
			group: []string{"zsh", "nosuch", "tmux"},
			wantRuns: []string{
				"dnf install -y zsh nosuch tmux",
				"dnf install -y zsh", "dnf install -y nosuch", "dnf install -y tmux",
			},
			wantAfter:  map[string]string{"zsh": "1.0-1", "tmux": "1.0-1"},
			wantFailed: "nosuch",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeDNF{t: t, db: t.TempDir(), known: []string{"zsh", "vim", "tmux"}, installed: map[string]string{}}
			for n, v := range tt.installed {
				f.installed[n] = v
			}
			// An hour ahead, so the database directory, just made, is not
			// too recently written to trust.
			m := dnf.New(dnf.Options{Runner: f, DBDir: f.db, Now: func() time.Time { return time.Now().Add(time.Hour) }})
			rs := make([]*resource, len(tt.group))
			for i, n := range tt.group {
				rs[i] = ensured(m, tt.ensure[i], n)[0]
			}
			results := applyGroup(t.Context(), rs)
			if !reflect.DeepEqual(f.dnfRuns, tt.wantRuns) {
				t.Errorf("dnf runs:\n%s\nwant:\n%s", strings.Join(f.dnfRuns, "\n"), strings.Join(tt.wantRuns, "\n"))
			}
			if !reflect.DeepEqual(f.installed, tt.wantAfter) {
				t.Errorf("installed after: %v, want %v", f.installed, tt.wantAfter)
			}
			for i, res := range results {
				n := tt.group[i]
				switch {
				case n == tt.wantFailed:
					if !errors.Is(res.Err, manager.ErrCommandFailed) || !strings.Contains(res.Err.Error(), "Unable to find a match: "+n) {
						t.Errorf("%s: error %v, want dnf's reason about it", n, res.Err)
					}
				case res.Err != nil || !res.Change.Changed:
					t.Errorf("%s: %+v, want changed without error", n, res)
				}
			}
		})
	}
}
