package scaffold

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestMain(m *testing.M) { os.Exit(resourcetest.Main(m)) }

// attackLayout is a layout whose target lies in a user's home.
func attackLayout(t *testing.T) layout {
	t.Helper()
	home := resourcetest.NobodyHome(t)
	l := newLayout(t, map[string]string{"conf/app.conf": "port [[ data.port ]]\n", "README": "x\n"})
	l.target = filepath.Join(home, "site")
	return l
}

// usersScaffold converges a purging scaffold, then hands its target to
// the user, as a web root owned by its site's account is.
func usersScaffold(t *testing.T, l layout) *scaffold {
	t.Helper()
	s := l.build(t, "purge: true\n")
	resourcetest.Converge(t.Context(), t, s, false, false)
	if err := os.Chown(l.target, resourcetest.Nobody, resourcetest.Nobody); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAttackTargetSwappedForALink(t *testing.T) {
	l := attackLayout(t)
	victim := resourcetest.Victim(t)
	resourcetest.AsNobody(t, "symlink", victim, l.target)
	for _, props := range []string{"purge: true\n", "ensure: absent\n"} {
		s := l.build(t, props)
		if _, err := resources.Converge(t.Context(), s, false, false); !errors.Is(err, safepath.ErrSymlink) {
			t.Fatalf("%s: error %v, want a refusal", props, err)
		}
	}
	resourcetest.Untouched(t, victim)
}

func TestAttackRenderedSubdirectorySwappedForALink(t *testing.T) {
	l := attackLayout(t)
	victim := resourcetest.Victim(t)
	s := usersScaffold(t, l)
	// The user replaces a rendered directory.
	if err := os.RemoveAll(filepath.Join(l.target, "conf")); err != nil {
		t.Fatal(err)
	}
	resourcetest.AsNobody(t, "symlink", victim, filepath.Join(l.target, "conf"))
	want := "refusing to follow symlink " + filepath.Join(l.target, "conf") + " -> " + victim
	_, err := resources.Converge(t.Context(), s, false, false)
	if !errors.Is(err, safepath.ErrSymlink) || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
	resourcetest.Untouched(t, victim)
}

func TestAttackStrayLinkIsPurgedAsALink(t *testing.T) {
	l := attackLayout(t)
	victim := resourcetest.Victim(t)
	s := usersScaffold(t, l)
	resourcetest.AsNobody(t, "symlink", victim, filepath.Join(l.target, "stray"))
	resourcetest.Converge(t.Context(), t, s, false, false)
	if resourcetest.Exists(filepath.Join(l.target, "stray")) {
		t.Fatal("the stray link stayed")
	}
	resourcetest.Untouched(t, victim)
}
