package facts

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/host"

	"github.com/reactive-ccm/ccm/graph/hiera"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/resources/template"
)

func TestSystemFactsArePlainMapsInUpstreamLayout(t *testing.T) {
	facts, warn, err := Gather(t.Context(), Options{Dirs: []string{}})
	if err != nil {
		t.Fatalf("Gather: %v", err)
	}
	if warn != nil {
		t.Logf("partial facts: %v", warn)
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	tm := template.New(template.Env{Facts: facts})
	tests := []struct {
		expr string
		want any
	}{
		{"${ Facts.host.info.hostname }", host},
		{"${ lookup('facts.host.info.hostname') }", host},
		{"${ facts.hostname }", host},
		{"${ lookup('facts.hostname') }", host},
		{"${ Facts.host.info.os }", "linux"},
		{"${ Facts.host.info.platformFamily == Facts.platformFamily }", true},
		{"${ type(Facts.host.info.procs) }", "int"},
		{"${ len(Facts.cpu.info) > 0 }", true},
		{"${ type(Facts.cpu.info[0].cores) }", "int"},
		{"${ any(Facts.network.interfaces, { .name == 'lo' }) }", true},
		{"${ type(Facts.network.addresses) }", "array"},
		{"${ Facts.memory.virtual.total > 0 }", true},
		{"${ type(Facts.memory.swap.devices) }", "array"},
		{"${ type(Facts.partition.partitions) }", "array"},
		{"${ type(Facts.partition.usage) }", "array"},
		{"${ Facts.default_ipv4 == Facts.network.default_ipv4 }", true},
	}
	for _, tt := range tests {
		if got, err := tm.Value(tt.expr); err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s = %#v, %v; want %#v", tt.expr, got, err, tt.want)
		}
	}
}

func TestSystemTimesOutLeavingSectionsEmpty(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	saved := sections
	defer func() { sections = saved }()
	// A section that answers at once, so the test does not depend on how
	// fast the real ones are on a loaded machine.
	quick := section{"host", func(context.Context) (map[string]any, error) {
		return map[string]any{"info": map[string]any{}}, nil
	}}
	stuck := section{"stuck", func(context.Context) (map[string]any, error) {
		<-release // like statfs on a dead NFS mount: deaf to ctx
		return map[string]any{"late": true}, nil
	}}
	sections = []section{quick, stuck}
	start := time.Now()
	facts, err := System(t.Context(), 200*time.Millisecond)
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "stuck") {
		t.Fatalf("System error = %v, want ErrTimeout naming the stuck section", err)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Fatalf("System waited %s for a stuck section", waited)
	}
	if got := facts["stuck"]; !reflect.DeepEqual(got, map[string]any{}) {
		t.Errorf("stuck section = %#v, want an empty map", got)
	}
	if _, ok := facts["host"].(map[string]any)["info"]; !ok {
		t.Errorf("sections that finished are missing: %#v", facts["host"])
	}
}

func TestDefaultInterfaceFromRouteTables(t *testing.T) {
	dir := t.TempDir()
	route4 := "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n" +
		"eth1\t00000000\t010200C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n" +
		"eth0\t00000000\t010200C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n" +
		"eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n" +
		"eth2\t00000000\t010200C0\t0002\t0\t0\t0\t00000000\t0\t0\t0\n"
	route6 := "fd000000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0\n" +
		"00000000000000000000000000000000 00 00000000000000000000000000000000 00 fd000000000000000000000000000001 00000400 00000002 00000000 00000003     eth3\n" +
		"00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo\n"
	tests := []struct {
		name, body, want string
		parse            func([]string) (route, bool)
	}{
		{"ipv4 lowest metric, up only", route4, "eth0", parseRoute4},
		{"ipv6 skips reject routes on lo", route6, "eth3", parseRoute6},
		{"no default route", "Iface\tDestination\n", "", parseRoute4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_"))
			if err := os.WriteFile(p, []byte(tt.body), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := defaultInterface(p, tt.parse)
			if err != nil || got != tt.want {
				t.Fatalf("defaultInterface = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	t.Run("a table that cannot be read", func(t *testing.T) {
		if got, err := defaultInterface(dir, parseRoute4); err == nil || got != "" || !strings.HasPrefix(err.Error(), "default route: reading "+dir) {
			t.Fatalf("defaultInterface of a directory = %q, %v; want an error naming it", got, err)
		}
	})
	t.Run("missing table", func(t *testing.T) {
		got, err := defaultInterface(filepath.Join(dir, "absent"), parseRoute4)
		if err != nil || got != "" {
			t.Fatalf("defaultInterface = %q, %v; want none", got, err)
		}
	})
}

func TestOverlaysMergeInOrder(t *testing.T) {
	sys, user, extra := t.TempDir(), t.TempDir(), t.TempDir()
	resourcetest.WriteTree(t, sys, map[string]string{
		"facts.json":          `{"role": "json", "roles": ["a"], "site": {"dc": "one", "rack": 1}}`,
		"facts.yaml":          "role: yaml\nroles: [b]\n",
		"facts.d/20-b.yaml":   "role: d20\n",
		"facts.d/10-a.json":   `{"role": "d10", "site": {"rack": 2}}`,
		"facts.d/.hidden.yml": "role: hidden\n",
		"facts.d/notes.txt":   "role: txt\n",
		"facts.d/sub/x.yaml":  "role: sub\n",
	})
	resourcetest.WriteTree(t, user, map[string]string{"target.yml": "env: user\n"})
	if err := os.Symlink(filepath.Join(user, "target.yml"), filepath.Join(user, "facts.yml")); err != nil {
		t.Fatal(err)
	}
	resourcetest.WriteTree(t, extra, map[string]string{"cli.yaml": "env: file\nrole: file\n"})
	o := Options{
		Dirs:  []string{sys, user},
		Files: []string{filepath.Join(extra, "cli.yaml")},
		Set:   []string{"env=fact", "site.dc=two"},
	}
	got, err := Overlay(map[string]any{"role": "system", "hostname": "h"}, o)
	if err != nil {
		t.Fatalf("Overlay: %v", err)
	}
	want := map[string]any{
		"hostname": "h",
		"role":     "file",
		"roles":    []any{"a", "b"},
		"site":     map[string]any{"dc": "two", "rack": 2},
		"env":      "fact",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Overlay = %#v\nwant %#v", got, want)
	}
	paths, err := o.Paths()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	if want := []string{"facts.json", "facts.yaml", "10-a.json", "20-b.yaml", "facts.yml", "cli.yaml"}; !reflect.DeepEqual(names, want) {
		t.Errorf("Paths = %q, want %q", names, want)
	}
	files, dirs := o.WatchPaths()
	if len(files) != 2*3+1 || len(dirs) != 2 || dirs[1] != filepath.Join(user, "facts.d") {
		t.Errorf("WatchPaths = %q, %q; want 7 files and 2 facts.d directories", files, dirs)
	}
}

func TestOverlayErrors(t *testing.T) {
	dir := t.TempDir()
	resourcetest.WriteTree(t, dir, map[string]string{
		"bad.yaml":      "a: 1\na: 2\n",
		"list.yaml":     "- a\n",
		"syn.json":      `{"a": `,
		"merge.yaml":    "a: {<<: 5}\n",
		"filed/facts.d": "not a directory\n",
	})
	tests := []struct {
		name     string
		o        Options
		is       error
		contains string
	}{
		{"duplicate key", Options{Dirs: []string{}, Files: []string{filepath.Join(dir, "bad.yaml")}}, nil, "bad.yaml:2:1: duplicate key"},
		{"not a map", Options{Dirs: []string{}, Files: []string{filepath.Join(dir, "list.yaml")}}, ErrNotMap, "list.yaml"},
		{"syntax", Options{Dirs: []string{}, Files: []string{filepath.Join(dir, "syn.json")}}, nil, "syn.json: invalid JSON or YAML"},
		{"missing --facts file", Options{Dirs: []string{}, Files: []string{filepath.Join(dir, "none.yaml")}}, os.ErrNotExist, "none.yaml"},
		{"bad --fact", Options{Dirs: []string{}, Set: []string{"novalue"}}, ErrBadFact, `"novalue"`},
		{"empty --fact key", Options{Dirs: []string{}, Set: []string{"=x"}}, ErrBadFact, `"=x"`},
		{"a bad merge key", Options{Dirs: []string{}, Files: []string{filepath.Join(dir, "merge.yaml")}}, nil, "merge.yaml:1:5: <<: a merge key takes a map"},
		{"a --facts directory", Options{Dirs: []string{}, Files: []string{dir}}, nil, "facts: open " + dir + ": not a regular file"},
		{"a facts.d that is a file", Options{Dirs: []string{filepath.Join(dir, "filed")}}, nil, "facts: open " + filepath.Join(dir, "filed", "facts.d") + ": not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Overlay(map[string]any{}, tt.o)
			if err == nil {
				t.Fatal("no error")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %q is not %v", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("error %q does not contain %q", err, tt.contains)
			}
		})
	}
}

func TestDefaultDirs(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/cfg")
	if got, want := DefaultDirs(), []string{SystemDir, "/cfg/choria/ccm"}; !reflect.DeepEqual(got, want) {
		t.Errorf("DefaultDirs = %q, want %q", got, want)
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("HOME", "/home/u")
	if got, want := DefaultDirs(), []string{SystemDir, "/home/u/.config/choria/ccm"}; !reflect.DeepEqual(got, want) {
		t.Errorf("DefaultDirs = %q, want %q", got, want)
	}
}

// TestHostInfoIsGopsutils checks that the host facts, gathered without
// lsb_release where it decides nothing, are gopsutil's.
func TestHostInfoIsGopsutils(t *testing.T) {
	want, err := host.InfoWithContext(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got, err := hostInfo(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	// These move while the test runs.
	got.Uptime, want.Uptime = 0, 0
	got.Procs, want.Procs = 0, 0
	if *got != *want {
		t.Errorf("host info differs from gopsutil's:\n got %+v\nwant %+v", *got, *want)
	}
}

func TestMergeOver(t *testing.T) {
	file := filepath.Join(t.TempDir(), "over.yaml")
	if err := os.WriteFile(file, []byte("web: {port: 8080}\nname: file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	data := map[string]any{"web": map[string]any{"port": 80, "host": "a"}, "name": "data"}
	got, err := MergeOver(data, file, []string{"name=flag", "web.tls=on"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"web": map[string]any{"port": 8080, "host": "a", "tls": "on"}, "name": "flag"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, err := MergeOver(data, "", []string{"novalue"}); !errors.Is(err, ErrBadFact) || !strings.HasPrefix(err.Error(), "--data: ") {
		t.Errorf("a bad --data gave %v", err)
	}
	if _, err := MergeOver(data, filepath.Join(t.TempDir(), "absent"), nil); err == nil {
		t.Error("a missing file gave no error")
	}
}

func TestLayered(t *testing.T) {
	file := filepath.Join(t.TempDir(), "facts.yaml")
	if err := os.WriteFile(file, []byte("role: file\nos: {family: debian}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sys := map[string]any{"role": "sys", "os": map[string]any{"family": "redhat", "name": "x"}, "HOME": "sys"}
	got, err := Layered(sys, map[string]string{"HOME": "/root", "role": "env"}, file, []string{"os.name=set"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"role": "file", "HOME": "/root", "os": map[string]any{"family": "debian", "name": "set"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if sys["role"] != "sys" {
		t.Error("the host's facts were changed in place")
	}
	got, err = Layered(nil, nil, "", []string{"a=1"})
	if err != nil || !reflect.DeepEqual(got, map[string]any{"a": "1"}) {
		t.Errorf("without the host's facts: %v, %v", got, err)
	}
}

func TestResolveHiera(t *testing.T) {
	src, err := hiera.Parse("h.yaml", []byte(`
hierarchy: {order: ["role:${ lookup('facts.role') }"]}
data: {home: "${ environ.HOME }", port: 80, name: data}
overrides:
  role:web: {port: 8080}
`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := ResolveHiera(src, map[string]any{"role": "web"}, map[string]string{"HOME": "/root"}, "", []string{"name=flag"})
	want := map[string]any{"home": "/root", "port": 8080, "name": "flag"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("ResolveHiera = %v, %v; want %v", got, err, want)
	}
	bad, err := hiera.Parse("h.yaml", []byte("data: {x: \"${ nope( }\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ResolveHiera(bad, nil, nil, "", nil); err == nil || !strings.Contains(err.Error(), "h.yaml") {
		t.Fatalf("a template that does not compile: %v, want an error naming the file", err)
	}
}
