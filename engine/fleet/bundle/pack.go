package bundle

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ManifestName is the file a bundle's root must hold.
const ManifestName = "manifest.yaml"

// Pack writes dir as a bundle to w. dir must hold manifest.yaml; only
// regular files and directories are packed (a symlink or device is an
// error, so what is packed is what the manifest sees).
func Pack(dir string, w io.Writer) error {
	if fi, err := os.Stat(filepath.Join(dir, ManifestName)); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("%w in %s", ErrNoManifest, dir)
	}
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	// WalkDir visits names in lexical order: the output is deterministic.
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		return packEntry(tw, p, filepath.ToSlash(rel), d)
	})
	if err != nil {
		return fmt.Errorf("bundle: packing %s: %w", dir, err)
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// packEntry writes one directory entry with normalised metadata.
func packEntry(tw *tar.Writer, path, name string, d fs.DirEntry) error {
	switch {
	case d.IsDir():
		return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: 0o755, Format: tar.FormatPAX})
	case !d.Type().IsRegular():
		return fmt.Errorf("%w: %s is not a regular file or directory", ErrUnsafeEntry, name)
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	mode := int64(0o644)
	if fi.Mode()&0o111 != 0 {
		mode = 0o755
	}
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode, Size: fi.Size(), Format: tar.FormatPAX}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	_, err = io.Copy(tw, f)
	return err
}
