package facts

import (
	"math"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestSet: --fact KEY=VALUE arguments, as a user writes them on the
// command line.
func TestSet(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pairs []string
		want  map[string]any
	}{
		{"none", nil, map[string]any{}},
		{"a value stays a string", []string{"cores=8"}, map[string]any{"cores": "8"}},
		{"an empty value", []string{"role="}, map[string]any{"role": ""}},
		{"the value keeps its =", []string{"query=a=b"}, map[string]any{"query": "a=b"}},
		{"a dotted key nests", []string{"os.family=debian"}, map[string]any{"os": map[string]any{"family": "debian"}}},
		{"siblings merge", []string{"os.family=debian", "os.release=12"}, map[string]any{"os": map[string]any{"family": "debian", "release": "12"}}},
		{"a later value wins", []string{"role=web", "role=db"}, map[string]any{"role": "db"}},
		{"a scalar replaces a map", []string{"os.family=debian", "os=linux"}, map[string]any{"os": "linux"}},
		{"a map replaces a scalar", []string{"os=linux", "os.family=debian"}, map[string]any{"os": map[string]any{"family": "debian"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Set(tc.pairs)
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Set(%q) = %#v, %v; want %#v", tc.pairs, got, err, tc.want)
			}
		})
	}
}

// TestPlainNumbers: numbers keep their integer type where they are
// integral and fit, so template arithmetic on facts stays exact.
func TestPlainNumbers(t *testing.T) {
	type section struct {
		Procs  uint64            `json:"procs"`
		Load   float64           `json:"load"`
		Huge   uint64            `json:"huge"`
		Nested map[string][]int8 `json:"nested"`
		Name   string            `json:"name"`
	}
	got, err := plain(section{Procs: 42, Load: 0.5, Huge: math.MaxUint64, Nested: map[string][]int8{"a": {-1, 2}}, Name: "x"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"procs": 42, "load": 0.5, "huge": float64(math.MaxUint64), "nested": map[string]any{"a": []any{-1, 2}}, "name": "x"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("plain = %#v\nwant %#v", got, want)
	}
	if _, err := plain(func() {}); err == nil || !strings.Contains(err.Error(), "encoding func()") {
		t.Fatalf("a value JSON cannot encode: %v", err)
	}
}

// TestRoutable: network.addresses lists only addresses another host
// could reach.
func TestRoutable(t *testing.T) {
	for addr, want := range map[string]bool{
		"192.0.2.10": true, "2001:db8::1": true, "10.0.0.1": true,
		"127.0.0.1": false, "::1": false, "169.254.1.1": false, "fe80::1": false,
		"224.0.0.1": false, "ff02::1": false, "0.0.0.0": false, "::": false,
	} {
		if got := routable(net.ParseIP(addr)); got != want {
			t.Errorf("routable(%s) = %t, want %t", addr, got, want)
		}
	}
}

// TestRouteLines: which single line of a /proc route table is a usable
// default route, and its metric.
func TestRouteLines(t *testing.T) {
	const dflt6 = "00000000000000000000000000000000 00 00000000000000000000000000000000 00 fd000000000000000000000000000001"
	for _, tc := range []struct {
		name   string
		parse  func([]string) (route, bool)
		line   string
		want   route
		usable bool
	}{
		{"ipv4 default, up", parseRoute4, "eth0 00000000 010200C0 0003 0 0 100 00000000", route{"eth0", 100}, true},
		{"ipv4 not the default destination", parseRoute4, "eth0 000200C0 00000000 0001 0 0 0 00000000", route{}, false},
		{"ipv4 a mask that is not 0", parseRoute4, "eth0 00000000 010200C0 0003 0 0 0 00FFFFFF", route{}, false},
		{"ipv4 down", parseRoute4, "eth0 00000000 010200C0 0002 0 0 0 00000000", route{}, false},
		{"ipv4 reject", parseRoute4, "eth0 00000000 010200C0 0201 0 0 0 00000000", route{}, false},
		{"ipv4 on lo", parseRoute4, "lo 00000000 010200C0 0003 0 0 0 00000000", route{}, false},
		{"ipv4 the header", parseRoute4, "Iface Destination Gateway Flags RefCnt Use Metric Mask", route{}, false},
		{"ipv4 a short line", parseRoute4, "eth0 00000000", route{}, false},
		{"ipv4 a metric that is no number", parseRoute4, "eth0 00000000 010200C0 0003 0 0 x 00000000", route{}, false},
		{"ipv6 default, metric in hex", parseRoute6, dflt6 + " 00000400 1 0 00000003 eth3", route{"eth3", 1024}, true},
		{"ipv6 a prefix", parseRoute6, "fd000000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 1 0 00000001 eth0", route{}, false},
		{"ipv6 flags that are no number", parseRoute6, dflt6 + " 00000400 1 0 zz eth3", route{}, false},
		{"ipv6 a short line", parseRoute6, dflt6, route{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := tc.parse(strings.Fields(tc.line))
			if ok != tc.usable || got != tc.want {
				t.Fatalf("got %+v, %t; want %+v, %t", got, ok, tc.want, tc.usable)
			}
		})
	}
}

// TestWithAliases: the short forms copy the facts they stand for, and
// only those that exist; the facts given are left as they were.
func TestWithAliases(t *testing.T) {
	sys := map[string]any{
		"host":    map[string]any{"info": map[string]any{"hostname": "web1", "platformFamily": "debian"}},
		"network": map[string]any{"default_ipv4": "192.0.2.10"},
	}
	got := WithAliases(sys)
	want := map[string]any{"host": sys["host"], "network": sys["network"], "hostname": "web1", "platformFamily": "debian", "default_ipv4": "192.0.2.10"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("WithAliases = %#v\nwant %#v", got, want)
	}
	if len(sys) != 2 {
		t.Fatalf("the facts given were changed: %v", sys)
	}
}

// TestReadFileShapes: an empty facts file is no facts, merge keys are
// expanded, and YAML numbers keep their type.
func TestReadFileShapes(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, body string
		want       map[string]any
	}{
		{"empty", "", map[string]any{}},
		{"only a comment", "# nothing yet\n", map[string]any{}},
		{"merge keys", "base: &b {dc: one, rack: 1}\nsite: {<<: *b, rack: 2}\n",
			map[string]any{"base": map[string]any{"dc": "one", "rack": 1}, "site": map[string]any{"dc": "one", "rack": 2}}},
		{"JSON", `{"cores": 8, "ratio": 0.5, "on": true}`, map[string]any{"cores": 8, "ratio": 0.5, "on": true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".yaml")
			if err := os.WriteFile(p, []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := ReadFile(p)
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("ReadFile = %#v, %v; want %#v", got, err, tc.want)
			}
		})
	}
}

// TestCacheGathersOnceUntilForget: a watching daemon's templates see the
// same facts at every reload until SIGHUP makes it forget them.
func TestCacheGathersOnceUntilForget(t *testing.T) {
	var c Cache
	first, _ := c.System(t.Context())
	again, _ := c.System(t.Context())
	if reflect.ValueOf(first).Pointer() != reflect.ValueOf(again).Pointer() {
		t.Fatal("the facts were gathered again without Forget")
	}
	if _, ok := first["hostname"]; !ok {
		t.Fatalf("the cached facts have no hostname alias: %v", first)
	}
	c.Forget()
	fresh, _ := c.System(t.Context())
	if reflect.ValueOf(fresh).Pointer() == reflect.ValueOf(first).Pointer() {
		t.Fatal("Forget kept the facts")
	}
}

// TestEveryBadOverlayAtOnce: every unusable overlay is reported in one
// error, so a user fixes them in one go, and no facts are returned.
func TestEveryBadOverlayAtOnce(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"facts.yaml": "- a list\n", "facts.d/10-dup.yaml": "a: 1\na: 2\n", "facts.d/20-ok.yaml": "b: 1\n"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Overlay(map[string]any{"host": "h"}, Options{Dirs: []string{dir}, Set: []string{"nokey"}})
	if got != nil || err == nil {
		t.Fatalf("Overlay = %v, %v", got, err)
	}
	for _, want := range []string{"facts.yaml", `10-dup.yaml:2:1: duplicate key "a"`, `expected KEY=VALUE, got "nokey"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// TestDefaultDirsNeverTwice: a user directory that is the system one is
// read once, and without a home only the system one is read.
func TestDefaultDirsNeverTwice(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/etc")
	if got := DefaultDirs(); !reflect.DeepEqual(got, []string{SystemDir}) {
		t.Errorf("XDG_CONFIG_HOME=/etc: %q", got)
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("HOME", "")
	if got := DefaultDirs(); !reflect.DeepEqual(got, []string{SystemDir}) {
		t.Errorf("without a home: %q", got)
	}
}
