package graph

import (
	"path/filepath"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
)

// references maps every "type#name" and "type#alias" to its vertex,
// reporting duplicates.
func (g *Graph) references(all []*entry, errs *resources.ErrorList) map[string]int {
	refs := make(map[string]int, len(all))
	for i, e := range all {
		v := g.Vertices[i]
		if j, dup := refs[v.ID()]; dup {
			errs.Addf(v.Pos, "duplicate resource %s (first defined at %s)", v.ID(), g.Vertices[j].Pos)
			continue
		}
		refs[v.ID()] = i
		if e.alias == "" {
			continue
		}
		ref := v.Type + "#" + e.alias
		if j, dup := refs[ref]; dup && j != i {
			errs.Addf(v.Pos, "alias %q of %s is already used by %s", e.alias, v.ID(), g.Vertices[j].ID())
			continue
		}
		refs[ref] = i
	}
	return refs
}

// edges adds the require, subscribe and automatic path edges.
func (g *Graph) edges(all []*entry, refs map[string]int, errs *resources.ErrorList) {
	seen := map[[2]int]bool{}
	add := func(from, to int, k EdgeKind) {
		key := [2]int{from, to}
		if seen[key] {
			// An explicit subscribe upgrades an earlier require or auto edge.
			if k == Subscribe {
				for i := range g.Edges {
					if g.Edges[i].From == from && g.Edges[i].To == to {
						g.Edges[i].Kind = Subscribe
					}
				}
			}
			return
		}
		seen[key] = true
		g.Edges = append(g.Edges, Edge{From: from, To: to, Kind: k})
	}
	for i, e := range all {
		for _, kind := range []EdgeKind{Require, Subscribe} {
			list := e.require
			if kind == Subscribe {
				list = e.subscribe
			}
			for _, r := range list {
				j, ok := g.resolve(r, refs, errs, kind)
				if !ok {
					continue
				}
				if j == i {
					errs.Addf(r.pos, "%s cannot %s itself", g.Vertices[i].ID(), kind)
					continue
				}
				add(j, i, kind)
			}
		}
	}
	for _, e := range all {
		for _, m := range e.members {
			add(m, e.index, Subscribe)
		}
	}
	g.autoEdges(add)
	g.owns, g.uses = nil, nil
}

func (g *Graph) resolve(r item, refs map[string]int, errs *resources.ErrorList, kind EdgeKind) (int, bool) {
	typ, name, ok := strings.Cut(r.value, "#")
	if !ok || typ == "" || name == "" {
		errs.Addf(r.pos, "%s %q: expected TYPE#NAME, for example file#/etc/motd", kind, r.value)
		return 0, false
	}
	if _, known := resources.Lookup(typ); !known {
		errs.Addf(r.pos, "%s %q: unknown resource type %q", kind, r.value, typ)
		return 0, false
	}
	if j, ok := refs[r.value]; ok {
		return j, true
	}
	if j, ok := g.pendingHolder(r.value); ok {
		return j, true
	}
	if g.external == nil {
		errs.Addf(r.pos, "%s %q: no such resource in the manifest (by name or alias)", kind, r.value)
		return 0, false
	}
	x, err := g.external(r.value)
	if err != nil {
		errs.Addf(r.pos, "%s %q: %v", kind, r.value, err)
		return 0, false
	}
	return g.addExternal(x, refs), true
}

// addExternal adds x's vertex, known by its name and alias from now on.
func (g *Graph) addExternal(x External, refs map[string]int) int {
	v := &Vertex{Index: len(g.Vertices), Type: x.Type, Name: x.Name, Alias: x.Alias, Resource: x.Resource, External: true}
	v.id = v.Type + "#" + v.Name
	g.Vertices = append(g.Vertices, v)
	g.owns = append(g.owns, nil)
	g.uses = append(g.uses, nil)
	refs[v.ID()] = v.Index
	if x.Alias != "" {
		refs[x.Type+"#"+x.Alias] = v.Index
	}
	return v.Index
}

// autoEdges orders a resource after the nearest other resource that owns
// its path or an ancestor of it (a directory before the files in it).
func (g *Graph) autoEdges(add func(from, to int, k EdgeKind)) {
	owner := map[string]int{}
	for i, paths := range g.owns {
		for _, p := range paths {
			if _, taken := owner[p]; !taken {
				owner[p] = i
			}
		}
	}
	if len(owner) == 0 {
		return
	}
	for i, paths := range g.uses {
		for _, p := range paths {
			for q := filepath.Clean(p); ; q = filepath.Dir(q) {
				if j, ok := owner[q]; ok && j != i {
					add(j, i, Auto)
					break
				}
				if q == "/" || q == "." {
					break
				}
			}
		}
	}
}
