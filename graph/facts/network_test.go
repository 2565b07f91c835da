package facts

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	gnet "github.com/shirou/gopsutil/v4/net"
)

// routableAddrs returns an interface of this host with a routable
// address of each family, and those addresses.
func routableAddrs(t *testing.T) (iface, v4, v6 string) {
	t.Helper()
	ifaces, err := gnet.InterfacesWithContext(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range ifaces {
		v4, v6 = "", ""
		for _, a := range i.Addrs {
			ip, _, err := net.ParseCIDR(a.Addr)
			switch {
			case err != nil || !routable(ip):
			case ip.To4() != nil && v4 == "":
				v4 = ip.String()
			case ip.To4() == nil && v6 == "":
				v6 = ip.String()
			}
		}
		if v4 != "" && v6 != "" {
			return i.Name, v4, v6
		}
	}
	t.Skip("no interface here has a routable address of each family")
	return "", "", ""
}

// TestDefaultAddresses: default_ipv4 and default_ipv6 are addresses of
// the interface the routing table's default route of their family goes
// through, and network.addresses marks them; without such a route they
// are empty.
func TestDefaultAddresses(t *testing.T) {
	iface, v4, v6 := routableAddrs(t)
	dir := t.TempDir()
	saved4, saved6 := routeFile4, routeFile6
	defer func() { routeFile4, routeFile6 = saved4, saved6 }()
	route4 := "Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\n" + iface + "\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\n"
	route6 := "00000000000000000000000000000000 00 00000000000000000000000000000000 00 fd000000000000000000000000000001 00000400 1 0 00000003 " + iface + "\n"
	for _, tc := range []struct {
		name           string
		route4, route6 string
		want4, want6   string
	}{
		{"both families", route4, route6, v4, v6},
		{"IPv4 only", route4, "", v4, ""},
		{"a default through an interface this host lacks", "Iface\tDestination\nnope0\t00000000\t0\t0003\t0\t0\t0\t00000000\n", "", "", ""},
		{"no tables", "-", "-", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			routeFile4, routeFile6 = filepath.Join(dir, "absent4"), filepath.Join(dir, "absent6")
			for _, f := range []struct {
				path *string
				body string
			}{{&routeFile4, tc.route4}, {&routeFile6, tc.route6}} {
				if f.body == "-" {
					continue
				}
				*f.path = filepath.Join(dir, tc.name+filepath.Base(*f.path))
				if err := os.WriteFile(*f.path, []byte(f.body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := networkFacts(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if got["default_ipv4"] != tc.want4 || got["default_ipv6"] != tc.want6 {
				t.Fatalf("defaults %v and %v, want %q and %q", got["default_ipv4"], got["default_ipv6"], tc.want4, tc.want6)
			}
			for _, a := range got["addresses"].([]any) {
				m := a.(map[string]any)
				if m["interface"] == iface && (m["address"] == v4 || m["address"] == v6) {
					if want := m["address"] == tc.want4 || m["address"] == tc.want6; m["default"] != want {
						t.Errorf("address %v marked default %v, want %v", m["address"], m["default"], want)
					}
				}
				if ip := net.ParseIP(m["address"].(string)); !routable(ip) {
					t.Errorf("%v listed", m["address"])
				}
			}
		})
	}
}
