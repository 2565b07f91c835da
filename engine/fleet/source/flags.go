package source

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
)

// Flags are the settings of a Set a command line chooses (--trust,
// --cache-dir, --allow-*, …); Options turns them into the Set's Options.
type Flags struct {
	// TrustFile names the public keys bundles must be signed with.
	TrustFile string
	// CacheDir is where revisions are cached; default StateDir's
	// sources/, StateDir resolved as state.Resolve does.
	CacheDir, StateDir                          string
	AllowUnsigned, AllowUnsignedData, AllowHTTP bool
	// ReadOnly is for a noop run (Options.ReadOnly).
	ReadOnly     bool
	HTTPInterval time.Duration
}

// Options checks f and returns the Options it chooses: the trust keys
// read, the cache opened on first use (once). Contradicting flags and an
// unreadable trust file are errors.
func (f Flags) Options() (Options, error) {
	if f.TrustFile != "" && f.AllowUnsigned {
		return Options{}, errors.New("--allow-unsigned contradicts --trust, which requires signed bundles; for kv:// data under --trust, use --allow-unsigned-data")
	}
	o := Options{ReadOnly: f.ReadOnly, AllowUnsigned: f.AllowUnsigned, AllowUnsignedData: f.AllowUnsignedData,
		AllowHTTP: f.AllowHTTP, HTTPInterval: f.HTTPInterval, Cache: sync.OnceValues(f.openCache)}
	if f.TrustFile != "" {
		keys, err := bundle.ReadPublicKeys(f.TrustFile)
		if err != nil {
			return Options{}, err
		}
		o.Trust = keys
	}
	return o, nil
}

// openCache opens CacheDir, or the state directory's sources/; read only,
// it is neither created nor written.
func (f Flags) openCache() (*state.Dir, error) {
	open := state.Open
	if f.ReadOnly {
		open = state.OpenReadOnly
	}
	if f.CacheDir != "" {
		d, err := open(f.CacheDir)
		if err != nil {
			return nil, fmt.Errorf("--cache-dir: %w", err)
		}
		return d, nil
	}
	path, _ := state.Resolve(f.StateDir)
	d, err := open(path)
	if err != nil {
		return nil, fmt.Errorf("--state-dir: %w", err)
	}
	defer d.Close()
	return d.Sub("sources")
}
