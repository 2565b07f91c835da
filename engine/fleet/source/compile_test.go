package source_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine/fleet/source"
)

// TestCompileFallsBackToTheLastBundleThatCompiled: a start whose newest
// bundle does not compile runs the last one that did, and says why; with
// nothing to fall back to, or when that fails too, the error stands.
func TestCompileFallsBackToTheLastBundleThatCompiled(t *testing.T) {
	e := newEnv(t)
	const loc = "obj://bundles/site.tgz"
	errBroken := errors.New("does not compile")
	// compile reads the manifest in force and refuses a broken one.
	compile := func(set *source.Set) func() (string, error) {
		return func() (string, error) {
			m, err := set.Manifest(loc)
			if err != nil {
				return "", err
			}
			body := read(t, m)
			if !strings.HasPrefix(body, "good") {
				return body, errBroken
			}
			return body, nil
		}
	}

	e.push(loc, bundleOf(t, "broken 1\n"), nil)
	set := e.set()
	if _, fellBack, err := source.Compile(set, compile(set)); !errors.Is(err, errBroken) || fellBack != nil {
		t.Fatalf("a broken first bundle: fell back %v, %v", fellBack, err)
	}

	e.push(loc, bundleOf(t, "good 2\n"), nil)
	set = e.set()
	if got, fellBack, err := source.Compile(set, compile(set)); err != nil || fellBack != nil || got != "good 2\n" {
		t.Fatalf("a good bundle: %q, fell back %v, %v", got, fellBack, err)
	}

	e.push(loc, bundleOf(t, "broken 3\n"), nil)
	set = e.set()
	got, fellBack, err := source.Compile(set, compile(set))
	if err != nil || !errors.Is(fellBack, errBroken) || got != "good 2\n" {
		t.Fatalf("a broken bundle after a good one: %q, fell back %v, %v; want good 2 and why", got, fellBack, err)
	}
}
