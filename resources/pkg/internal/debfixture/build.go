package debfixture

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// build makes one .deb with dpkg-deb under the repository's pool.
func (r *Repo) build(t testing.TB, p Package) {
	t.Helper()
	if !strings.HasPrefix(p.Name, Prefix) {
		t.Fatalf("debfixture: package %q must be named %s*", p.Name, Prefix)
	}
	tree := filepath.Join(r.dir, "build", p.Name+"_"+p.Version)
	writeFile(t, filepath.Join(tree, "DEBIAN", "control"), fmt.Sprintf(
		"Package: %s\nVersion: %s\nArchitecture: all\nMaintainer: ccm tests <ccm-tests@localhost>\nDescription: ccm test fixture, safe to purge\n",
		p.Name, p.Version), 0o644)
	if p.Conffile {
		conf := r.Conffile(p.Name)
		writeFile(t, filepath.Join(tree, conf), "version "+p.Version+"\n", 0o644)
		writeFile(t, filepath.Join(tree, "DEBIAN", "conffiles"), conf+"\n", 0o644)
	}
	if p.FailConfigure {
		writeFile(t, filepath.Join(tree, "DEBIAN", "postinst"), fmt.Sprintf(
			"#!/bin/sh\nif [ -e %q ]; then echo 'ccm fixture: configure made to fail' >&2; exit 1; fi\n",
			r.failMarker(p.Name)), 0o755)
	}
	deb := filepath.Join(r.dir, "repo", "pool", p.Name+"_"+p.Version+"_all.deb")
	writeFile(t, deb, "", 0o644)
	check(t, run(t, "dpkg-deb", "--root-owner-group", "-Znone", "--build", tree, deb), "dpkg-deb --build "+p.Name)
	r.debs[p.Name+"_"+p.Version] = deb
}

// index writes the repository's Packages file, every version included.
func (r *Repo) index(t testing.TB) {
	t.Helper()
	res := runIn(t, filepath.Join(r.dir, "repo"), "dpkg-scanpackages", "-m", "pool")
	check(t, res, "dpkg-scanpackages")
	writeFile(t, filepath.Join(r.dir, "repo", "Packages"), string(res.Stdout), 0o644)
}

// writeAptConfig moves every file apt reads or writes, except dpkg's
// database, under the test's directory, and lists only the fixture
// repository as a source.
func (r *Repo) writeAptConfig(t testing.TB) string {
	t.Helper()
	d := func(parts ...string) string { return filepath.Join(append([]string{r.dir, "apt"}, parts...)...) }
	for _, dir := range []string{d("sources.list.d"), d("preferences.d"), d("lists", "partial"), d("cache", "archives", "partial"), d("log")} {
		writeFile(t, filepath.Join(dir, ".keep"), "", 0o644)
	}
	writeFile(t, d("sources.list"), fmt.Sprintf("deb [trusted=yes] file:%s ./\n", filepath.Join(r.dir, "repo")), 0o644)
	conf := d("apt.conf")
	writeFile(t, conf, strings.Join([]string{
		fmt.Sprintf("Dir::Etc::SourceList %q;", d("sources.list")),
		fmt.Sprintf("Dir::Etc::SourceParts %q;", d("sources.list.d")),
		fmt.Sprintf("Dir::Etc::Preferences %q;", d("preferences")),
		fmt.Sprintf("Dir::Etc::PreferencesParts %q;", d("preferences.d")),
		fmt.Sprintf("Dir::State::Lists %q;", d("lists")),
		fmt.Sprintf("Dir::State::extended_states %q;", d("extended_states")),
		fmt.Sprintf("Dir::Cache %q;", d("cache")),
		fmt.Sprintf("Dir::Log %q;", d("log")),
		`Acquire::Languages "none";`,
		// The repository lives in a root-only temporary directory.
		`APT::Sandbox::User "root";`,
	}, "\n")+"\n", 0o644)
	return conf
}
