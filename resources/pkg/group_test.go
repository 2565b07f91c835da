package pkg

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/resources/pkg/apt"
	"github.com/reactive-ccm/ccm/resources/pkg/internal/debfixture"
	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

// installArgs are apt-get's arguments for an install, before the packages.
var installArgs = []string{"install", "-y", "-q", "-o", "DPkg::Options::=--force-confold"}

// aptGets runs programs on the host and records the apt-get command lines
// among them, so a test sees which path a group took.
type aptGets struct {
	mu    sync.Mutex
	lines []string
}

var _ command.Runner = (*aptGets)(nil)

func (a *aptGets) Run(ctx context.Context, c command.Cmd) (command.Result, error) {
	if c.Name == "apt-get" {
		a.mu.Lock()
		a.lines = append(a.lines, manager.CommandLine(c))
		a.mu.Unlock()
	}
	return command.Run(ctx, c)
}

func (a *aptGets) take() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := a.lines
	a.lines = nil
	return out
}

// ensured builds a resource per name, all served by m and ensured so.
func ensured(m manager.Manager, ensure string, names ...string) []*resource {
	rs := make([]*resource, len(names))
	for i, n := range names {
		m.Track(n)
		rs[i] = &resource{name: n, ensure: ensure, m: m}
	}
	return rs
}

// applyGroup applies rs as one group, the first one receiving the call,
// as the engine does.
func applyGroup(ctx context.Context, rs []*resource) []resources.GroupResult {
	ms := make([]resources.GroupMember, len(rs))
	for i, r := range rs {
		ms[i] = resources.GroupMember{Resource: r}
	}
	return rs[0].ApplyGroup(ctx, ms)
}

func TestGroupsGoToAptTogether(t *testing.T) {
	names, r := debfixture.NewNumbered(t, "group", 3)
	nosuch := debfixture.Prefix + "nosuch"
	install := "apt-get " + strings.Join(installArgs, " ") + " "
	tests := []struct {
		name      string
		installed []string
		ensure    string
		group     []string
		wantRuns  []string
		// wantFailed is the member whose error names it; the others
		// change without error.
		wantFailed string
	}{
		{
			name: "installs share one run", ensure: "present", group: names,
			wantRuns: []string{install + strings.Join(names, " ")},
		},
		{
			name: "an exact version allows downgrades for the run", ensure: "1.0-1", group: names[:2],
			wantRuns: []string{install + "--allow-downgrades " + names[0] + "=1.0-1 " + names[1] + "=1.0-1"},
		},
		{
			name: "removes share one run", installed: names, ensure: "absent", group: names,
			wantRuns: []string{"apt-get -q -y remove " + strings.Join(names, " ")},
		},
		{
			name: "a package already as ensured stays out of the run", installed: names[:1], ensure: "present", group: names,
			wantRuns: []string{install + names[1] + " " + names[2]},
		},
		{
			name: "a lone change runs the command it always ran", installed: names[1:], ensure: "present", group: names,
			wantRuns: []string{install + names[0]},
		},
		{
			name: "a package apt does not know fails alone", ensure: "present", group: []string{names[0], nosuch, names[2]},
			wantRuns: []string{
				install + names[0] + " " + nosuch + " " + names[2],
				install + names[0], install + nosuch, install + names[2],
			},
			wantFailed: nosuch,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debfixture.Purge(t)
			for _, n := range tt.installed {
				debfixture.Dpkg(t, false, "-i", r.Deb(t, n, "1.0-1"))
			}
			runs := &aptGets{}
			rs := ensured(apt.New(apt.Options{Runner: runs}), tt.ensure, tt.group...)
			results := applyGroup(t.Context(), rs)
			if got := runs.take(); !reflect.DeepEqual(got, tt.wantRuns) {
				t.Errorf("apt-get runs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.wantRuns, "\n"))
			}
			for i, res := range results {
				n := tt.group[i]
				if n == tt.wantFailed {
					if !errors.Is(res.Err, manager.ErrCommandFailed) || !strings.Contains(res.Err.Error(), "Unable to locate package "+n) {
						t.Errorf("%s: error %v, want apt's reason about it", n, res.Err)
					}
					continue
				}
				wantChanged := !slices.Contains(tt.installed, n) || tt.ensure == "absent"
				if res.Err != nil || res.Change.Changed != wantChanged {
					t.Errorf("%s: %+v, want changed %v without error", n, res, wantChanged)
				}
				st, err := rs[i].Check(t.Context())
				if err != nil || !st.Desired {
					t.Errorf("%s after the group: %+v, %v; want it as ensured", n, st, err)
				}
			}
		})
	}
}

func TestGroupKeySeparatesRemovesAndProviders(t *testing.T) {
	a, d := apt.New(apt.Options{}), managerNamed("dnf")
	keys := map[string]string{
		"apt install": ensured(a, "present", "x")[0].GroupKey(),
		"apt upgrade": ensured(a, "latest", "x")[0].GroupKey(),
		"apt version": ensured(a, "1.0-1", "x")[0].GroupKey(),
		"apt remove":  ensured(a, "absent", "x")[0].GroupKey(),
		"dnf install": ensured(d, "present", "x")[0].GroupKey(),
		"dnf remove":  ensured(d, "absent", "x")[0].GroupKey(),
	}
	same := [][2]string{{"apt install", "apt upgrade"}, {"apt install", "apt version"}}
	for _, p := range same {
		if keys[p[0]] != keys[p[1]] {
			t.Errorf("%s and %s have keys %q and %q, want one", p[0], p[1], keys[p[0]], keys[p[1]])
		}
	}
	distinct := map[string]string{}
	for _, k := range []string{"apt install", "apt remove", "dnf install", "dnf remove"} {
		if other, ok := distinct[keys[k]]; ok {
			t.Errorf("%s has the key of %s: %q", k, other, keys[k])
		}
		distinct[keys[k]] = k
	}
}

// BenchmarkInstallPackages installs 20 fixture packages on a host that
// has none of them, as the engine converges 20 consecutive package
// resources (each checked, applied and checked again): with one apt-get
// run per package, as before packages were grouped and as a package alone
// still is, and with the 20 grouped into one run. apt-get-runs/op counts
// the runs. The floor is that one apt-get run alone, without ccm.
func BenchmarkInstallPackages(b *testing.B) {
	names, _ := debfixture.NewNumbered(b, "bench", 20)
	for _, grouped := range []bool{false, true} {
		name := "one-apt-get-each-20"
		if grouped {
			name = "grouped-20"
		}
		b.Run(name, func(b *testing.B) {
			runs := &aptGets{}
			for b.Loop() {
				b.StopTimer()
				debfixture.Purge(b)
				rs := ensured(apt.New(apt.Options{Runner: runs}), "present", names...)
				b.StartTimer()
				if err := converge(b.Context(), rs, grouped); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(runs.take()))/float64(b.N), "apt-get-runs/op")
		})
	}
	b.Run("floor-one-apt-get-20", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			debfixture.Purge(b)
			b.StartTimer()
			c := command.Cmd{Name: "apt-get", Args: append(slices.Clone(installArgs), names...), Env: []string{"DEBIAN_FRONTEND=noninteractive", "APT_CONFIG=" + os.Getenv("APT_CONFIG")}}
			if res, err := command.Run(b.Context(), c); err != nil || res.ExitCode != 0 {
				b.Fatalf("%s: exit %d, %v: %s", manager.CommandLine(c), res.ExitCode, err, res.Stderr)
			}
		}
	})
}

// converge checks rs, applies those not as ensured, one by one or as one
// group, and checks those again.
func converge(ctx context.Context, rs []*resource, grouped bool) error {
	var todo []*resource
	for _, r := range rs {
		st, err := r.Check(ctx)
		if err != nil {
			return err
		}
		if !st.Desired {
			todo = append(todo, r)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	errs := make([]error, len(todo))
	if grouped {
		for i, res := range applyGroup(ctx, todo) {
			errs[i] = res.Err
		}
	} else {
		for i, r := range todo {
			_, errs[i] = r.Apply(ctx, resources.Request{})
		}
	}
	for i, r := range todo {
		if errs[i] != nil {
			return errs[i]
		}
		if st, err := r.Check(ctx); err != nil || !st.Desired {
			return fmt.Errorf("%s not as ensured after applying: %+v, %v", r.name, st, err)
		}
	}
	return nil
}
