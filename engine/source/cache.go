package source

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/engine/bundle"
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

// record is a revision as the cache stores it.
type record struct {
	ID      string    `json:"id"`
	Fetched time.Time `json:"fetched"`
	// Entry is the bundle directory or data file, in the cache directory.
	Entry string `json:"entry"`
	// Manifest is the manifest's path inside Entry.
	Manifest string `json:"manifest,omitempty"`
}

// cache is one source's directory under the cache root: an entry per
// revision kept, plus current.json (the revision in force) and good.json
// (the last one that compiled).
type cache struct {
	dir string
}

func (c cache) entryName(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:12])
}

// read returns the record named which ("current" or "good").
func (c cache) read(which string) (record, error) {
	var r record
	b, err := os.ReadFile(filepath.Join(c.dir, which+".json"))
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(b, &r); err != nil || r.Entry == "" || strings.ContainsAny(r.Entry, `/\`) {
		return r, fmt.Errorf("source: %s/%s.json is damaged", c.dir, which)
	}
	return r, nil
}

func (c cache) write(which string, r record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(c.dir, which+".json"), b)
}

// revision turns a record back into a revision, reading a data entry.
func (c cache) revision(r record, data bool) (Revision, error) {
	rev := Revision{ID: r.ID, Fetched: r.Fetched}
	entry := filepath.Join(c.dir, r.Entry)
	if !data {
		rev.Manifest = filepath.Join(entry, r.Manifest)
		_, err := os.Stat(rev.Manifest)
		return rev, err
	}
	var err error
	rev.Data, err = os.ReadFile(entry)
	return rev, err
}

// storeBundle extracts tgz into its entry, unless an earlier fetch did.
func (c cache) storeBundle(id string, tgz []byte, lim bundle.Limits) (record, error) {
	r := record{ID: id, Fetched: time.Now(), Entry: c.entryName(id)}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return r, err
	}
	final := filepath.Join(c.dir, r.Entry)
	tmp, err := os.MkdirTemp(c.dir, ".extract-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(tmp)
	manifest, err := bundle.Extract(bytes.NewReader(tgz), filepath.Join(tmp, "b"), lim)
	if err != nil {
		return r, err
	}
	if r.Manifest, err = filepath.Rel(filepath.Join(tmp, "b"), manifest); err != nil {
		return r, err
	}
	if _, err := os.Stat(final); err == nil {
		return r, nil
	}
	return r, os.Rename(filepath.Join(tmp, "b"), final)
}

func (c cache) storeData(id string, data []byte) (record, error) {
	r := record{ID: id, Fetched: time.Now(), Entry: c.entryName(id) + ".data"}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return r, err
	}
	return r, writeAtomic(filepath.Join(c.dir, r.Entry), data)
}

// prune removes every entry but those of keep.
func (c cache) prune(keep ...string) {
	ents, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		if strings.HasSuffix(name, ".json") || slices.Contains(keep, name) {
			continue
		}
		_ = os.RemoveAll(filepath.Join(c.dir, name))
	}
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
