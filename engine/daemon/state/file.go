package state

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces name with data atomically and durably: once it
// returns, a crash leaves data under name; before, the old content.
func (d *Dir) WriteFile(name string, data []byte) (err error) {
	if err := d.writable(name); err != nil {
		return err
	}
	root, f, tmp, err := d.create(name)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = root.Remove(tmp)
		}
	}()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if err = errors.Join(err, f.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", d.name(name), err)
	}
	if err := root.Rename(tmp, name); err != nil {
		return fmt.Errorf("replacing %s: %w", d.name(name), err)
	}
	return d.sync(root)
}

// create makes tmp, a temporary file for name, in the directory, making
// the directory first when it is missing, or again when another run
// pruned it since this Dir opened it.
func (d *Dir) create(name string) (root *os.Root, f *os.File, tmp string, err error) {
	tmp = tempPrefix + name + "-" + rand.Text()[:8]
	for again := true; ; again = false {
		if root, err = d.made(); err != nil {
			return nil, nil, "", err
		}
		f, err = root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrNotExist) && again {
			d.stale(root)
			continue
		}
		if err != nil {
			return nil, nil, "", fmt.Errorf("writing %s: %w", d.name(name), err)
		}
		return root, f, tmp, nil
	}
}

// ReadFile returns the content of name; an error matching fs.ErrNotExist
// when there is none (or no directory yet).
func (d *Dir) ReadFile(name string) ([]byte, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	root, err := d.existing()
	if err != nil {
		return nil, err
	}
	if root == nil {
		return nil, fmt.Errorf("reading %s: %w", d.name(name), fs.ErrNotExist)
	}
	b, err := root.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", d.name(name), err)
	}
	return b, nil
}

// Remove deletes name durably; a missing name (or directory) is not an
// error.
func (d *Dir) Remove(name string) error {
	if err := d.writable(name); err != nil {
		return err
	}
	root, err := d.existing()
	if root == nil {
		return err
	}
	if err := root.Remove(name); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("removing %s: %w", d.name(name), err)
	}
	return d.sync(root)
}

// WriteJSON stores v as JSON under name, as WriteFile does.
func (d *Dir) WriteJSON(name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", d.name(name), err)
	}
	return d.WriteFile(name, b)
}

// ReadJSON decodes name into v. It reports false, and leaves v alone, when
// there is no such file.
func (d *Dir) ReadJSON(name string, v any) (found bool, err error) {
	b, err := d.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return true, fmt.Errorf("decoding %s: %w", d.name(name), err)
	}
	return true, nil
}

// sync makes renames and removals in the directory, root, durable.
func (d *Dir) sync(root *os.Root) error {
	f, err := root.Open(".")
	if err != nil {
		return fmt.Errorf("syncing %s: %w", d.path, err)
	}
	err = f.Sync()
	if err = errors.Join(err, f.Close()); err != nil {
		return fmt.Errorf("syncing %s: %w", d.path, err)
	}
	return nil
}

// writable checks name, and that d may be written.
func (d *Dir) writable(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if d.readOnly {
		return fmt.Errorf("%w: %s", ErrReadOnly, d.name(name))
	}
	return nil
}

func (d *Dir) name(name string) string { return filepath.Join(d.path, name) }
