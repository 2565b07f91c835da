package source_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
)

func TestFlagsRefuseUnsignedUnderTrust(t *testing.T) {
	key := filepath.Join(t.TempDir(), "key")
	pub, err := bundle.GenerateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	file := key + ".pub"
	if _, err := (source.Flags{TrustFile: file, AllowUnsigned: true}).Options(); err == nil || !strings.Contains(err.Error(), "--allow-unsigned") {
		t.Errorf("--trust with --allow-unsigned: %v; want the contradiction named", err)
	}
	o, err := (source.Flags{TrustFile: file}).Options()
	if err != nil || len(o.Trust) != 1 || !o.Trust[0].Equal(pub) {
		t.Errorf("--trust: keys %v, %v; want the one key of the file", o.Trust, err)
	}
	if _, err := (source.Flags{TrustFile: filepath.Join(t.TempDir(), "none")}).Options(); err == nil {
		t.Error("a missing --trust file is accepted")
	}
}

func TestFlagsCacheUnderTheStateDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	o, err := (source.Flags{StateDir: dir, ReadOnly: true}).Options()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Cache(); err == nil {
		t.Error("a read-only cache opened a state directory that does not exist")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("a read-only cache created %s: %v", dir, err)
	}
	o, _ = (source.Flags{StateDir: dir}).Options()
	d, err := o.Cache()
	if err != nil || d.Path() != filepath.Join(dir, "sources") {
		t.Fatalf("cache %v, %v; want %s/sources", d, err, dir)
	}
	defer d.Close()
	cache := filepath.Join(t.TempDir(), "cache")
	o, _ = (source.Flags{StateDir: dir, CacheDir: cache}).Options()
	if d, err := o.Cache(); err != nil || d.Path() != cache {
		t.Fatalf("--cache-dir: cache %v, %v; want %s", d, err, cache)
	}
}
