package facts

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	gnet "github.com/shirou/gopsutil/v4/net"
)

// Route files the default interfaces are read from; variables so tests can
// point them at fixtures.
var (
	routeFile4 = "/proc/net/route"
	routeFile6 = "/proc/net/ipv6_route"
)

// networkFacts lists interfaces, their routable addresses, and the
// addresses of the interfaces holding the default routes. Upstream CCM
// finds the default interface by "dialling" public addresses over UDP; the
// kernel's routing table says the same without any network call.
func networkFacts(ctx context.Context) (map[string]any, error) {
	var errs []error
	out := map[string]any{"interfaces": []any{}, "addresses": []any{}, "default_ipv4": "", "default_ipv6": ""}
	ifaces, err := gnet.InterfacesWithContext(ctx)
	into(out, "interfaces", ifaces, err, &errs)
	dflt4, err := defaultInterface(routeFile4, parseRoute4)
	if err != nil {
		errs = append(errs, err)
	}
	dflt6, err := defaultInterface(routeFile6, parseRoute6)
	if err != nil {
		errs = append(errs, err)
	}
	addrs := []any{}
	for _, i := range ifaces {
		for _, a := range i.Addrs {
			ip, _, err := net.ParseCIDR(a.Addr)
			if err != nil || !routable(ip) {
				continue
			}
			v4 := ip.To4() != nil
			isDefault := (v4 && i.Name == dflt4) || (!v4 && i.Name == dflt6)
			addrs = append(addrs, map[string]any{"interface": i.Name, "address": ip.String(), "ipv4": v4, "default": isDefault})
			key := "default_ipv6"
			if v4 {
				key = "default_ipv4"
			}
			if isDefault && out[key] == "" {
				out[key] = ip.String()
			}
		}
	}
	out["addresses"] = addrs
	return out, errors.Join(errs...)
}

func routable(ip net.IP) bool {
	return !ip.IsLoopback() && !ip.IsLinkLocalUnicast() && !ip.IsLinkLocalMulticast() && !ip.IsMulticast() && !ip.IsUnspecified()
}

// route is one default route: its interface and metric.
type route struct {
	iface  string
	metric uint64
}

// Route flags from the kernel's route.h.
const (
	rtfUp     = 0x1
	rtfReject = 0x200
)

// defaultInterface returns the interface of the usable default route with
// the lowest metric in a /proc route table, or "" when there is none.
func defaultInterface(file string, parse func([]string) (route, bool)) (string, error) {
	f, err := os.Open(file)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("default route: %w", err)
	}
	defer f.Close()
	best, found := route{}, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		r, ok := parse(strings.Fields(sc.Text()))
		if ok && (!found || r.metric < best.metric) {
			best, found = r, true
		}
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("default route: reading %s: %w", file, err)
	}
	return best.iface, nil
}

// parseRoute4 reads a /proc/net/route line: Iface Destination Gateway
// Flags RefCnt Use Metric Mask ...
func parseRoute4(f []string) (route, bool) {
	if len(f) < 8 || f[1] != "00000000" || f[7] != "00000000" {
		return route{}, false
	}
	return usable(f[0], f[3], f[6], 10)
}

// parseRoute6 reads a /proc/net/ipv6_route line: Destination PrefixLen
// Source SourcePrefixLen NextHop Metric RefCnt Use Flags Iface.
func parseRoute6(f []string) (route, bool) {
	if len(f) < 10 || strings.Trim(f[0], "0") != "" || f[1] != "00" {
		return route{}, false
	}
	return usable(f[9], f[8], f[5], 16)
}

// usable parses a route's flags (hex) and metric (in base) and keeps the
// route when it is up, not a reject route, and not on the loopback
// interface.
func usable(iface, flags, metric string, base int) (route, bool) {
	fl, err := strconv.ParseUint(flags, 16, 32)
	if err != nil || fl&rtfUp == 0 || fl&rtfReject != 0 || iface == "lo" {
		return route{}, false
	}
	m, err := strconv.ParseUint(metric, base, 64)
	if err != nil {
		return route{}, false
	}
	return route{iface: iface, metric: m}, true
}
