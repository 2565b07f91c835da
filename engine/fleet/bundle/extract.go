package bundle

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
)

// Limits bound what Extract accepts.
type Limits struct {
	// Bytes bounds the total size of the files, default 1 GiB.
	Bytes int64
	// Entries bounds the number of entries, default 100,000.
	Entries int
}

func (l Limits) withDefaults() Limits {
	if l.Bytes <= 0 {
		l.Bytes = 1 << 30
	}
	if l.Entries <= 0 {
		l.Entries = 100_000
	}
	return l
}

// Extract unpacks the bundle read from r into dest, which it creates (it
// must not exist), and returns the path of its manifest.yaml: the one at
// the root, else the shallowest one (upstream takes the first found). On
// error dest is removed. Every write goes through an os.Root on dest, so
// nothing can land outside it even if a check here were wrong.
func Extract(r io.Reader, dest string, lim Limits) (string, error) {
	if err := os.Mkdir(dest, 0o700); err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	root, err := os.OpenRoot(dest)
	if err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	defer root.Close()
	manifest, err := extract(r, root, lim.withDefaults())
	if err != nil {
		os.RemoveAll(dest)
		return "", err
	}
	return path.Join(dest, manifest), nil
}

func extract(r io.Reader, root *os.Root, lim Limits) (string, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return "", fmt.Errorf("bundle: not a gzipped tarball: %w", err)
	}
	tr := tar.NewReader(gz)
	manifest := ""
	var total int64
	for n := 0; ; n++ {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("bundle: reading tarball: %w", err)
		}
		if n >= lim.Entries {
			return "", fmt.Errorf("%w: more than %d entries", ErrTooLarge, lim.Entries)
		}
		name, err := entryName(hdr)
		if err != nil {
			return "", err
		}
		if err := writeEntry(root, tr, hdr, name, &total, lim.Bytes); err != nil {
			return "", err
		}
		if path.Base(name) == ManifestName && hdr.Typeflag == tar.TypeReg && shallower(name, manifest) {
			manifest = name
		}
	}
	if manifest == "" {
		return "", ErrNoManifest
	}
	return manifest, nil
}

// shallower reports whether a is a better manifest candidate than b.
func shallower(a, b string) bool {
	return b == "" || strings.Count(a, "/") < strings.Count(b, "/")
}

// Bounds of an entry's name: a PAX header may carry a name of a megabyte,
// half a million directories deep, which creating and removing would
// cost far more than the bundle's bytes suggest.
const (
	maxNameLen = 4096
	maxDepth   = 256
)

// entryName checks an entry's name and type and returns the clean name.
func entryName(hdr *tar.Header) (string, error) {
	raw := strings.TrimSuffix(hdr.Name, "/")
	if len(raw) > maxNameLen || strings.Count(raw, "/") >= maxDepth {
		return "", fmt.Errorf("%w: a name of %d bytes, %d levels deep; at most %d bytes and %d levels", ErrUnsafeEntry, len(raw), strings.Count(raw, "/")+1, maxNameLen, maxDepth)
	}
	switch hdr.Typeflag {
	case tar.TypeReg, tar.TypeDir:
	default:
		return "", fmt.Errorf("%w: %q is a %s; bundles hold regular files and directories only", ErrUnsafeEntry, hdr.Name, typeName(hdr.Typeflag))
	}
	if raw == "" || strings.HasPrefix(raw, "/") || strings.ContainsRune(raw, 0) || strings.Contains(raw, `\`) {
		return "", fmt.Errorf("%w: %q is not a relative name", ErrUnsafeEntry, hdr.Name)
	}
	for _, part := range strings.Split(raw, "/") {
		if part == ".." {
			return "", fmt.Errorf("%w: %q climbs out of the bundle", ErrUnsafeEntry, hdr.Name)
		}
	}
	name := path.Clean(raw)
	if name == "." {
		return "", fmt.Errorf("%w: %q names the bundle's root", ErrUnsafeEntry, hdr.Name)
	}
	return name, nil
}

func typeName(t byte) string {
	switch t {
	case tar.TypeSymlink:
		return "symlink"
	case tar.TypeLink:
		return "hard link"
	case tar.TypeChar, tar.TypeBlock:
		return "device"
	case tar.TypeFifo:
		return "fifo"
	}
	return fmt.Sprintf("entry of type %q", t)
}

// writeEntry creates one directory or file under root. Parents missing from
// the tarball are created; an existing file is never overwritten.
func writeEntry(root *os.Root, tr *tar.Reader, hdr *tar.Header, name string, total *int64, max int64) error {
	if hdr.Typeflag == tar.TypeDir {
		return wrap(root.MkdirAll(name, 0o755), name)
	}
	if dir := path.Dir(name); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return wrap(err, name)
		}
	}
	*total += hdr.Size
	if hdr.Size < 0 || *total > max {
		return fmt.Errorf("%w: more than %d bytes", ErrTooLarge, max)
	}
	mode := os.FileMode(0o644)
	if hdr.Mode&0o111 != 0 {
		mode = 0o755
	}
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return wrap(err, name)
	}
	_, err = io.Copy(f, io.LimitReader(tr, hdr.Size))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return wrap(err, name)
}

func wrap(err error, name string) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("bundle: extracting %s: %w", name, err)
}
