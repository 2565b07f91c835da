package archive

import (
	"archive/zip"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
)

// methodBzip2 is the zip compression method number of bzip2.
const methodBzip2 = 12

// scanZip reads every member of the zip archive in src, decompressing it,
// and counts it with m before unzip runs. The bytes counted are those the
// member really holds, not what its header says: a member that holds more
// than its header declares, or other than its checksum, is refused (the
// reader checks both), so the sizes unzip writes are the ones counted.
func scanZip(m *meter, src io.ReaderAt, size int64) error {
	zr, err := zip.NewReader(src, size)
	if err != nil {
		return fmt.Errorf("reading the zip archive: %w", err)
	}
	// unzip reads bzip2 members too.
	zr.RegisterDecompressor(methodBzip2, func(r io.Reader) io.ReadCloser { return io.NopCloser(bzip2.NewReader(r)) })
	for _, f := range zr.File {
		if err := scanMember(m, f); err != nil {
			return err
		}
	}
	return nil
}

// scanMember counts one member of a zip archive.
func scanMember(m *meter, f *zip.File) error {
	rc, err := f.Open()
	if err != nil {
		return fmt.Errorf("reading member %s of the zip archive: %w", f.Name, err)
	}
	defer rc.Close()
	err = m.member(f.Name, io.Discard, rc)
	switch {
	case errors.Is(err, zip.ErrFormat):
		return fmt.Errorf("member %s of the zip archive holds more than its header says (%d bytes): %w", f.Name, f.UncompressedSize64, err)
	case errors.Is(err, zip.ErrChecksum), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("member %s of the zip archive does not hold what its header says: %w", f.Name, err)
	}
	return err
}
