package archive

import (
	"os/user"
	"strconv"
	"testing"
)

// TestDecisionMatrix is the seed's decision matrix and decision table, row
// by row, with the plan each row leads to.
func TestDecisionMatrix(t *testing.T) {
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(me.Uid)
	gid, _ := strconv.Atoi(me.Gid)
	const good, bad = "aa", "bb"
	for _, tc := range []struct {
		desc    string
		p       props
		o       observed
		desired bool
		plan    plan
	}{
		{"absent, archive missing", props{Ensure: "absent"}, observed{}, true, plan{}},
		{"absent, archive exists", props{Ensure: "absent"}, observed{exists: true}, false, plan{remove: true}},
		{"nothing there", props{Creates: "/c", ExtractParent: "/e"}, observed{}, false, plan{download: true, extract: true}},
		{"archive there, creates missing", props{Creates: "/c", ExtractParent: "/e", Checksum: good}, observed{exists: true, sum: good}, false, plan{extract: true}},
		{"archive and creates there", props{Creates: "/c", ExtractParent: "/e", Checksum: good}, observed{exists: true, sum: good, createsExists: true}, true, plan{}},
		{"cleanup, archive gone, creates there", props{Creates: "/c", ExtractParent: "/e", Cleanup: true}, observed{createsExists: true}, true, plan{}},
		{"cleanup, archive and creates there", props{Creates: "/c", ExtractParent: "/e", Cleanup: true, Checksum: good}, observed{exists: true, sum: good, createsExists: true}, false, plan{cleanup: true}},
		{"cleanup, nothing there", props{Creates: "/c", ExtractParent: "/e", Cleanup: true}, observed{}, false, plan{download: true, extract: true, cleanup: true}},
		{"creates there, archive missing", props{Creates: "/c", ExtractParent: "/e"}, observed{createsExists: true}, false, plan{download: true, extract: true}},
		{"checksum mismatch", props{Checksum: good, ExtractParent: "/e"}, observed{exists: true, sum: bad}, false, plan{download: true, extract: true}},
		{"owner mismatch", props{}, observed{exists: true, uid: uid + 1}, false, plan{download: true}},
		{"download only, all good", props{Checksum: good}, observed{exists: true, sum: good}, true, plan{}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			a := &archive{name: "/a.tgz", p: tc.p}
			a.p.Owner, a.p.Group = me.Username, strconv.Itoa(gid)
			if a.p.Ensure == "" {
				a.p.Ensure = ensurePresent
			}
			o := tc.o
			if o.exists && o.uid == 0 && o.gid == 0 {
				o.uid, o.gid = uid, gid
			}
			diffs := a.verdict(o)
			if (len(diffs) == 0) != tc.desired {
				t.Errorf("desired = %v (%v), want %v", len(diffs) == 0, diffs, tc.desired)
			}
			if got := a.planFor(o); got != tc.plan {
				t.Errorf("plan %+v, want %+v", got, tc.plan)
			}
		})
	}
}
