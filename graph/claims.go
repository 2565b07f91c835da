package graph

import (
	"fmt"
	"maps"
	"slices"

	"github.com/reactive-ccm/ccm/resources"
)

// claimant is a vertex's claim on a file's content.
type claimant struct {
	v     int
	claim resources.Claim
}

// checkClaims refuses files whose whole content one resource decides
// while another decides any of it (a file with content and a file_line
// on the same path): each run would undo the other's change, and watch
// mode would repair for ever. Resources that each decide some lines
// share a file. Each conflict is reported at the later resource.
func (g *Graph) checkClaims(errs *resources.ErrorList) {
	byPath := map[string][]claimant{}
	for i, cs := range g.claims {
		for _, c := range cs {
			byPath[c.Path] = append(byPath[c.Path], claimant{i, c})
		}
	}
	g.claims = nil
	for _, path := range slices.Sorted(maps.Keys(byPath)) {
		list := byPath[path]
		for k, later := range list {
			for _, earlier := range list[:k] {
				if (earlier.claim.Whole || later.claim.Whole) && earlier.v != later.v {
					errs.Addf(g.Vertices[later.v].Pos, "%s", g.conflict(path, earlier, later))
				}
			}
		}
	}
}

// conflict explains two claims on path that cannot stand together.
func (g *Graph) conflict(path string, earlier, later claimant) string {
	e, l := g.Vertices[earlier.v], g.Vertices[later.v]
	head := fmt.Sprintf("%s conflicts with %s (%s) over %s: ", l.ID(), e.ID(), e.Pos, path)
	if earlier.claim.Whole && later.claim.Whole {
		return head + fmt.Sprintf("%s decides it whole (%s), and so does %s (%s); manage it in one resource", e.ID(), earlier.claim.What, l.ID(), later.claim.What)
	}
	whole, part := earlier, later
	if !whole.claim.Whole {
		whole, part = later, earlier
	}
	return head + fmt.Sprintf("%s decides it whole (%s) while %s edits part of it (%s); a file edited in part may be managed otherwise only by a resource that leaves its content alone",
		g.Vertices[whole.v].ID(), whole.claim.What, g.Vertices[part.v].ID(), part.claim.What)
}
