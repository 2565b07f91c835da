package source

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/reactive-ccm/ccm/engine/bundle"
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
}

// record is a revision as the cache stores it in current.json.
type record struct {
	ID      string    `json:"id"`
	Fetched time.Time `json:"fetched"`
	// Manifest is the manifest's path inside the bundle directory.
	Manifest string `json:"manifest,omitempty"`
}

// cache is one source's directory under the cache root. It holds the
// revision in force, the directory "bundle" (extracted) or the file
// "data", and current.json saying which revision that is. The bundle
// directory keeps its path across revisions (a new one is swapped in
// atomically), so a manifest's directory, and the resources that do not
// change, stay the same from one revision to the next.
type cache struct {
	dir string
}

const (
	bundleEntry = "bundle"
	dataEntry   = "data"
	recordFile  = "current.json"
)

// read returns the revision in force, as cached.
func (c cache) read(data bool) (Revision, error) {
	var r record
	b, err := os.ReadFile(filepath.Join(c.dir, recordFile))
	if err != nil {
		return Revision{}, err
	}
	if err := json.Unmarshal(b, &r); err != nil || r.ID == "" || (!data && !filepath.IsLocal(r.Manifest)) {
		return Revision{}, fmt.Errorf("source: %s is damaged", filepath.Join(c.dir, recordFile))
	}
	rev := Revision{ID: r.ID, Fetched: r.Fetched}
	if data {
		rev.Data, err = os.ReadFile(filepath.Join(c.dir, dataEntry))
		return rev, err
	}
	rev.Manifest = filepath.Join(c.dir, bundleEntry, r.Manifest)
	_, err = os.Stat(rev.Manifest)
	return rev, err
}

// storeBundle extracts tgz and swaps it in as the bundle in force.
func (c cache) storeBundle(id string, tgz []byte, lim bundle.Limits) (Revision, error) {
	rev := Revision{ID: id, Fetched: time.Now()}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return rev, err
	}
	tmp, err := os.MkdirTemp(c.dir, ".extract-")
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
	if err := swapIn(fresh, filepath.Join(c.dir, bundleEntry)); err != nil {
		return rev, fmt.Errorf("source: putting the bundle in place: %w", err)
	}
	rev.Manifest = filepath.Join(c.dir, bundleEntry, rel)
	return rev, c.record(record{ID: id, Fetched: rev.Fetched, Manifest: rel})
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

func (c cache) storeData(id string, data []byte) (Revision, error) {
	rev := Revision{ID: id, Fetched: time.Now(), Data: data}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return rev, err
	}
	if err := writeAtomic(filepath.Join(c.dir, dataEntry), data); err != nil {
		return rev, err
	}
	return rev, c.record(record{ID: id, Fetched: rev.Fetched})
}

// record writes current.json, after the content it describes is in place:
// a crash in between leaves an older ID, which only makes the next fetch
// download again.
func (c cache) record(r record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(c.dir, recordFile), b)
}

// writeAtomic replaces path with data: a synced temporary file in the same
// directory, renamed over it.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return errors.Join(fmt.Errorf("source: writing %s", path), err)
	}
	return nil
}
