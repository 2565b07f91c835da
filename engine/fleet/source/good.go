package source

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// The last bundle that compiled is kept beside the one in force, so a host
// whose newest bundle is broken still starts, on the one before.
const (
	goodEntry  = "good"
	goodRecord = "good.json"
)

// keepGood copies the bundle in force to the good entry, unless it is the
// good one already.
func (c cache) keepGood(rev Revision) error {
	if g, err := readRecord(c.d, goodRecord, false); err == nil && g.ID == rev.ID {
		return nil
	}
	cur, err := readRecord(c.d, recordFile, false)
	if err != nil || cur.ID != rev.ID {
		return fmt.Errorf("source: the bundle in force is not %s any more", rev.ID)
	}
	tmp, err := os.MkdirTemp(c.d.Path(), extractPrefix)
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	fresh := filepath.Join(tmp, goodEntry)
	if err := copyTree(filepath.Join(c.d.Path(), bundleEntry), fresh); err != nil {
		return fmt.Errorf("source: keeping the good bundle: %w", err)
	}
	if err := swapIn(fresh, filepath.Join(c.d.Path(), goodEntry)); err != nil {
		return fmt.Errorf("source: keeping the good bundle: %w", err)
	}
	return c.d.WriteJSON(goodRecord, cur)
}

// readGood returns the last bundle that compiled.
func (c cache) readGood() (Revision, error) {
	if c.from == nil {
		return Revision{}, fs.ErrNotExist
	}
	return bundleAt(c.from, goodRecord, goodEntry)
}

// copyTree copies the regular files and directories under src (an
// extracted bundle, which holds nothing else) to dst, which must not exist.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.Mkdir(to, 0o755)
		case !d.Type().IsRegular():
			return errors.New(p + " is not a regular file")
		}
		return copyFile(p, to)
	})
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	return errors.Join(err, out.Close())
}
