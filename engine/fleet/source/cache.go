package source

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
	"golang.org/x/sys/unix"
)

// Revision is one version of a source, as accepted.
type Revision struct {
	// ID identifies the version: the object's digest, the key's revision,
	// the HTTP validator or content hash.
	ID      string
	Fetched time.Time
	// Manifest is the extracted bundle's manifest.yaml (bundles).
	Manifest string
	// Data is the content (data sources).
	Data []byte
	// Cached is set when the revision was read from the cache because the
	// source could not be reached.
	Cached bool
	// VerifiedBy is the hex key its signature was verified with, empty
	// when it was not verified; Signed is when it was signed.
	VerifiedBy string
	Signed     time.Time
}

// record is a revision as the cache stores it in current.json.
type record struct {
	ID      string    `json:"id"`
	Fetched time.Time `json:"fetched"`
	// Manifest is the manifest's path inside the bundle directory.
	Manifest string `json:"manifest,omitempty"`
	// VerifiedBy and Signed are the revision's; trust belongs to the bytes,
	// so a run that requires signatures reads them before using a copy.
	VerifiedBy string    `json:"verified_by,omitempty"`
	Signed     time.Time `json:"signed,omitzero"`
}

// cache is one source's directory under the state directory's "sources":
// the revision in force, the directory "bundle" (extracted) or the file
// "data", and current.json saying which revision that is. The bundle
// directory keeps its path across revisions (a new one is swapped in
// atomically), so a manifest's directory, and the resources that do not
// change, stay the same from one revision to the next.
type cache struct {
	// d is where fetched revisions are written.
	d *state.Dir
	// from is where the revisions cached earlier are read: d, or, for a
	// read-only set, the state directory's copy (nil when it has none).
	from *state.Dir
}

const (
	bundleEntry   = "bundle"
	dataEntry     = "data"
	recordFile    = "current.json"
	extractPrefix = ".extract-"
)

// madeSub is root's subdirectory name, made now: bundles are extracted
// in it by path.
func madeSub(root *state.Dir, name string) (*state.Dir, error) {
	d, err := root.Sub(name)
	if err == nil {
		err = d.Create()
	}
	return d, err
}

// openCache opens (creating) the cache directory name under o.Cache, and
// removes extractions a crash interrupted; for a read-only set, see
// openReadOnlyCache.
func openCache(o *Options, name string) (cache, error) {
	if o.Cache == nil {
		return cache{}, fmt.Errorf("%w: no state directory to cache remote sources in", ErrUnavailable)
	}
	if o.ReadOnly {
		return openReadOnlyCache(o, name)
	}
	r, err := o.Cache()
	if err != nil {
		return cache{}, err
	}
	d, err := madeSub(r, name)
	if err != nil {
		return cache{}, err
	}
	left, _ := filepath.Glob(filepath.Join(d.Path(), extractPrefix+"*"))
	for _, l := range left {
		_ = os.RemoveAll(l)
	}
	return cache{d: d, from: d}, nil
}

// read returns the revision in force, as cached.
func (c cache) read(data bool) (Revision, error) {
	if c.from == nil {
		return Revision{}, fs.ErrNotExist
	}
	if data {
		r, err := readRecord(c.from, recordFile, true)
		if err != nil {
			return Revision{}, err
		}
		rev := Revision{ID: r.ID, Fetched: r.Fetched, VerifiedBy: r.VerifiedBy, Signed: r.Signed}
		rev.Data, err = c.from.ReadFile(dataEntry)
		return rev, err
	}
	return bundleAt(c.from, recordFile, bundleEntry)
}

// readRecord reads the record named name in d.
func readRecord(d *state.Dir, name string, data bool) (record, error) {
	var r record
	found, err := d.ReadJSON(name, &r)
	switch {
	case err != nil:
		return r, err
	case !found:
		return r, fs.ErrNotExist
	case r.ID == "" || (!data && !filepath.IsLocal(r.Manifest)):
		return r, fmt.Errorf("source: %s is damaged", filepath.Join(d.Path(), name))
	}
	return r, nil
}

// bundleAt returns the bundle revision the record name in d describes,
// whose tree is the entry dir.
func bundleAt(d *state.Dir, name, dir string) (Revision, error) {
	r, err := readRecord(d, name, false)
	if err != nil {
		return Revision{}, err
	}
	rev := Revision{ID: r.ID, Fetched: r.Fetched, Manifest: filepath.Join(d.Path(), dir, r.Manifest), VerifiedBy: r.VerifiedBy, Signed: r.Signed}
	_, err = os.Stat(rev.Manifest)
	return rev, err
}

// storeBundle extracts tgz and swaps it in as the bundle in force, with
// what its signature attests (zero when it was not verified).
func (c cache) storeBundle(id string, tgz []byte, a bundle.Attestation, lim bundle.Limits) (Revision, error) {
	rev := Revision{ID: id, Fetched: time.Now(), VerifiedBy: a.Key, Signed: a.Signed}
	tmp, err := os.MkdirTemp(c.d.Path(), extractPrefix)
	if err != nil {
		return rev, err
	}
	defer os.RemoveAll(tmp)
	fresh := filepath.Join(tmp, bundleEntry)
	manifest, err := bundle.Extract(bytes.NewReader(tgz), fresh, lim)
	if err != nil {
		return rev, err
	}
	rel, err := filepath.Rel(fresh, manifest)
	if err != nil {
		return rev, err
	}
	if err := swapIn(fresh, filepath.Join(c.d.Path(), bundleEntry)); err != nil {
		return rev, fmt.Errorf("source: putting the bundle in place: %w", err)
	}
	rev.Manifest = filepath.Join(c.d.Path(), bundleEntry, rel)
	return rev, c.d.WriteJSON(recordFile, record{ID: id, Fetched: rev.Fetched, Manifest: rel, VerifiedBy: a.Key, Signed: a.Signed})
}

// swapIn puts the directory fresh at path: a rename when path is free, an
// atomic exchange (the old tree ends up at fresh) when it is not, so
// readers see the old tree or the new one, never a mix or nothing.
func swapIn(fresh, path string) error {
	err := unix.Renameat2(unix.AT_FDCWD, fresh, unix.AT_FDCWD, path, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOENT) {
		return os.Rename(fresh, path)
	}
	return err
}

// storeData writes data, then the record: a crash in between leaves an
// older ID, which only makes the next fetch download again.
func (c cache) storeData(id string, data []byte, a bundle.Attestation) (Revision, error) {
	rev := Revision{ID: id, Fetched: time.Now(), Data: data, VerifiedBy: a.Key, Signed: a.Signed}
	if err := c.d.WriteFile(dataEntry, data); err != nil {
		return rev, err
	}
	return rev, c.d.WriteJSON(recordFile, record{ID: id, Fetched: rev.Fetched, VerifiedBy: a.Key, Signed: a.Signed})
}
