package archive

import (
	"strings"

	"github.com/reactive-ccm/ccm/resources"
)

// plan is what an Apply does, in this order.
type plan struct {
	remove   bool // ensure absent: delete the archive
	download bool
	extract  bool
	cleanup  bool // delete the archive after extraction
}

// planFor decides the actions from what a check observed, following the
// seed's apply logic: download when the archive is missing or its checksum
// (or, when it is kept, its ownership) is wrong; extract when extract_parent
// is set and a download happened or the creates marker is missing; then
// clean up.
func (a *archive) planFor(o observed) plan {
	if a.p.Ensure == ensureAbsent {
		return plan{remove: o.exists}
	}
	if len(a.verdict(o)) == 0 {
		return plan{}
	}
	var diff *resources.Difference
	ownerOnly := false
	if o.exists {
		diff, ownerOnly = a.mismatch(o)
	}
	// With cleanup the archive is deleted anyway, so its ownership alone
	// is no reason to fetch it again.
	download := !o.exists || (diff != nil && !(ownerOnly && a.p.Cleanup))
	if a.p.Cleanup && o.createsExists {
		download = false
	}
	extract := a.p.ExtractParent != "" && (download || (a.p.Creates != "" && !o.createsExists))
	return plan{
		download: download,
		extract:  extract,
		cleanup:  a.p.Cleanup && (download || o.exists),
	}
}

func (p plan) empty() bool { return p == plan{} }

// noopMessage describes the plan the way the seed documents word it.
func (p plan) noopMessage() string {
	var msgs []string
	for _, s := range []struct {
		on  bool
		msg string
	}{
		{p.download, "Would have downloaded"},
		{p.extract, "Would have extracted"},
		{p.cleanup, "Would have cleaned up"},
		{p.remove, "Would have removed"},
	} {
		if s.on {
			msgs = append(msgs, s.msg)
		}
	}
	return strings.Join(msgs, ". ")
}
