// Package facts gathers what a manifest knows about its host, as plain maps
// and lists (map[string]any, []any) so templates reach every fact by its
// JSON name: `Facts.host.info.platformFamily` and
// `lookup('facts.host.info.platformFamily')` both work.
//
// The layout is upstream CCM's (gopsutil v4 JSON names):
//   - host.info: hostname, uptime, bootTime, procs, os, platform,
//     platformFamily, platformVersion, kernelVersion, kernelArch,
//     virtualizationSystem, virtualizationRole, hostId;
//   - network.interfaces[] (index, mtu, name, hardwareAddr, flags, addrs),
//     network.addresses[] ({interface, address, ipv4, default}, without
//     loopback, link-local and multicast), network.default_ipv4 and
//     network.default_ipv6 (an address of the default route's interface);
//   - partition.partitions[], partition.usage[];
//   - cpu.info[];
//   - memory.virtual, memory.swap.info, memory.swap.devices[].
//
// Top-level aliases copy the facts manifests use most, so the short forms
// `lookup('facts.hostname')` and `.facts.hostname` work: hostname, os,
// platform, platformFamily, platformVersion, kernelVersion, kernelArch
// (from host.info) and default_ipv4, default_ipv6 (from network).
//
// Overlays are deep-merged on top, in this order (maps merge, lists
// concatenate, other values replace):
//  1. in /etc/choria/ccm, then in $XDG_CONFIG_HOME/choria/ccm (default
//     ~/.config/choria/ccm): facts.json, facts.yaml, facts.yml, then the
//     *.json, *.yaml and *.yml files of facts.d in name order;
//  2. each --facts FILE (JSON or YAML), in order;
//  3. each --fact KEY=VALUE, in order; a dotted KEY sets a nested fact.
//
// So --fact wins over --facts, as upstream's documentation promises (its
// code does the opposite). Unlike upstream, a malformed overlay is an error
// rather than silently skipped, .yml is read like .yaml, and symbolic links
// are followed.
//
// Gathering the host's facts is bounded by a timeout: a section still
// running then (statfs on a dead NFS mount, say) is left empty and reported.
package facts
