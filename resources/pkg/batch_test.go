package pkg

import (
	"context"
	"sync"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/pkg/apt"
	"github.com/reactive-ccm/ccm/resources/pkg/internal/debfixture"
	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

// checkWorkers is how many checks run at once, like the engine's pool.
const checkWorkers = 4

// installBulk builds n fixture packages and installs them all with one
// dpkg -i; it returns their names.
func installBulk(tb testing.TB, n int) []string {
	tb.Helper()
	names, r := debfixture.NewNumbered(tb, "bulk", n)
	args := []string{"-i"}
	for _, n := range names {
		args = append(args, r.Deb(tb, n, "1.0-1"))
	}
	debfixture.Dpkg(tb, false, args...)
	return names
}

// present builds a resource per name, all served by m, the way build
// does: tracked first, checked later.
func present(m manager.Manager, names []string) []*resource {
	rs := make([]*resource, len(names))
	for i, n := range names {
		m.Track(n)
		rs[i] = &resource{name: n, ensure: ensurePresent, m: m}
	}
	return rs
}

// checkAll checks every resource on checkWorkers goroutines.
func checkAll(ctx context.Context, rs []*resource) ([]resources.Status, error) {
	out := make([]resources.Status, len(rs))
	errs := make([]error, len(rs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range checkWorkers {
		wg.Go(func() {
			for i := range next {
				out[i], errs[i] = rs[i].Check(ctx)
			}
		})
	}
	for i := range rs {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func TestChecksOfManyPackagesShareOneQuery(t *testing.T) {
	names := installBulk(t, 40)
	p := apt.New(apt.Options{})
	rs := present(p, names)
	steps := []struct {
		name   string
		change func(t *testing.T)
		absent string
	}{
		{"first check of every package", func(*testing.T) {}, ""},
		{"after a package was removed by hand", func(t *testing.T) { debfixture.Dpkg(t, false, "-r", names[7]) }, names[7]},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			st.change(t)
			before := p.Queries()
			statuses, err := checkAll(t.Context(), rs)
			if err != nil {
				t.Fatal(err)
			}
			// Concurrent checks share one query. A check that arrives after
			// it finished may need a second when the database changed in
			// between (dpkg tidies its updates directory after it returns),
			// but never one per package.
			if q := p.Queries() - before; q < 1 || q > 2 {
				t.Errorf("%d dpkg-query runs for %d checks, want 1 (2 at most)", q, len(rs))
			}
			for i, s := range statuses {
				wantAbsent := names[i] == st.absent
				if s.Desired == wantAbsent || (s.Ensure == "absent") != wantAbsent {
					t.Errorf("%s: %+v, want absent=%v", names[i], s, wantAbsent)
				}
			}
		})
	}
}

// BenchmarkCheckInstalledPackages checks 200 installed packages in one
// pass after a change of dpkg's database (a cold cache), with the checks
// sharing one dpkg-query and, for comparison, with one dpkg-query per
// package as upstream CCM runs them; and with nothing changed (a warm
// cache).
func BenchmarkCheckInstalledPackages(b *testing.B) {
	names := installBulk(b, 200)
	cases := []struct {
		name  string
		setup func() []*resource
	}{
		{"batched-200", func() []*resource { return present(apt.New(apt.Options{}), names) }},
		{"one-query-each-200", func() []*resource {
			rs := make([]*resource, len(names))
			for i, n := range names {
				rs[i] = present(apt.New(apt.Options{}), []string{n})[0]
			}
			return rs
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				rs := c.setup()
				b.StartTimer()
				if _, err := checkAll(b.Context(), rs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("unchanged-200", func(b *testing.B) {
		rs := present(apt.New(apt.Options{}), names)
		if _, err := checkAll(b.Context(), rs); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := checkAll(b.Context(), rs); err != nil {
				b.Fatal(err)
			}
		}
	})
}
