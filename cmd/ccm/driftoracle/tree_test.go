package driftoracle_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// gen builds a tree of resources from a seed.
type gen struct {
	rng   *rand.Rand
	root  string
	files int
	// dirs are the directories generated so far, the root first, with
	// their depth below it.
	dirs  []*resource
	depth map[*resource]int
	out   []*resource
}

const maxDepth = 4

// generate returns the resources of a tree under root: its directories
// first, each after its parent.
func generate(rng *rand.Rand, root string) []*resource {
	g := &gen{rng: rng, root: root, files: 100 + rng.IntN(1901), depth: map[*resource]int{}}
	for _, k := range kinds {
		k.generate(g, k)
	}
	return g.out
}

func generateDirs(g *gen, k *kind) {
	root := g.add(k, g.root, nil)
	g.dirs, g.depth[root] = append(g.dirs, root), 0
	for i := range 2 + g.files/25 {
		parent := g.dirs[g.rng.IntN(len(g.dirs))]
		if g.depth[parent] == maxDepth {
			parent = root
		}
		d := g.add(k, filepath.Join(parent.path, g.name("d", i)), nil)
		g.dirs, g.depth[d] = append(g.dirs, d), g.depth[parent]+1
	}
}

func generateFiles(g *gen, k *kind) {
	for i := range g.files {
		parent := g.dirs[g.rng.IntN(len(g.dirs))]
		g.add(k, filepath.Join(parent.path, g.name("f", i)), g.content())
	}
}

func (g *gen) add(k *kind, path string, content []byte) *resource {
	r := &resource{kind: k, path: path, mode: k.modes[g.rng.IntN(len(k.modes))],
		owner: owners[g.rng.IntN(len(owners))], group: groups[g.rng.IntN(len(groups))], content: content}
	g.out = append(g.out, r)
	return r
}

// name is the i-th name with prefix; one in four is padded to a random
// length up to 240 bytes, so that events of every size are read and a
// burst spans several reads of the kernel's queue.
func (g *gen) name(prefix string, i int) string {
	n := fmt.Sprintf("%s%d", prefix, i)
	if g.rng.IntN(4) == 0 {
		n += "-" + strings.Repeat(string(rune('a'+g.rng.IntN(26))), g.rng.IntN(240-len(n)))
	}
	return n
}

// content is printable, from empty to a few kilobytes.
func (g *gen) content() []byte {
	const chars = "abcdefghijklmnopqrstuvwxyz0123456789 \n"
	b := make([]byte, g.rng.IntN(3)*g.rng.IntN(2000))
	for i := range b {
		b[i] = chars[g.rng.IntN(len(chars))]
	}
	return b
}

// manifest is the manifest declaring rs, grouped by type.
func manifest(rs []*resource) string {
	var b strings.Builder
	b.WriteString("ccm:\n  resources:\n")
	types := map[string][]*resource{}
	var order []string
	for _, r := range rs {
		if _, ok := types[r.kind.manifestType]; !ok {
			order = append(order, r.kind.manifestType)
		}
		types[r.kind.manifestType] = append(types[r.kind.manifestType], r)
	}
	for _, typ := range order {
		fmt.Fprintf(&b, "    - %s:\n", typ)
		for _, r := range types[typ] {
			fmt.Fprintf(&b, "        - %q: %s\n", r.path, r.kind.entry(r))
		}
	}
	return b.String()
}

// hand is one goroutine of a burst: its random source, and where its
// tampers leave what they make.
type hand struct {
	rng *rand.Rand
	// scratch is a directory outside the tree, for symlinks to point to.
	scratch string
	// seq numbers the names tampers make, across hands.
	seq *atomic.Int64
}

func (h *hand) pick(as []account) account { return as[h.rng.IntN(len(as))] }

// other is a mode other than mode.
func (h *hand) other(mode os.FileMode) os.FileMode {
	for {
		if m := os.FileMode(h.rng.IntN(0o1000)); m != mode {
			return m
		}
	}
}

func (h *hand) bytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('A' + h.rng.IntN(26))
	}
	return b
}

// away is a fresh name beside path, for what a tamper moves away.
func (h *hand) away(path string) string { return fmt.Sprintf("%s.away-%d", path, h.seq.Add(1)) }

// noiseName is a fresh name that nothing manages.
func (h *hand) noiseName() string { return fmt.Sprintf(".noise-%d", h.seq.Add(1)) }

func (h *hand) scratchFile() string { return filepath.Join(h.scratch, "file") }

func (h *hand) scratchDir() string { return filepath.Join(h.scratch, "dir") }
