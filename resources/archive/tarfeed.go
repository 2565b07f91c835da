package archive

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
)

// maxTrailer bounds what is passed on to tar after the end of the archive:
// tar stops reading there, so more is never needed.
const maxTrailer = 1 << 20

// feedTar decompresses the tar archive in src and writes it to w (tar's
// standard input), reading it with archive/tar on the way: every member
// tar is given has been counted by m first, and as soon as one exceeds a
// bound feedTar stops, so tar never gets the bytes past it. Sparse members
// count at their full length. It stops too when the filesystem's free
// space falls under the floor while it writes.
func feedTar(m *meter, gz bool, src io.Reader, w io.Writer) error {
	r, err := decompress(src, gz)
	if err != nil {
		return fmt.Errorf("reading the tar archive: %w", err)
	}
	w = &roomWriter{w: w, l: m.limits}
	tr := tar.NewReader(io.TeeReader(r, w))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if m.members == 0 && (errors.Is(err, tar.ErrHeader) || errors.Is(err, io.ErrUnexpectedEOF)) {
			return fmt.Errorf("reading the tar archive: not a tar archive (uncompressed, gzip or bzip2): %w", err)
		}
		if err != nil {
			return fmt.Errorf("reading the tar archive: %w", err)
		}
		if err := m.member(h.Name, io.Discard, tr); err != nil {
			return err
		}
	}
	// tar has every member now: what follows the end of the archive is
	// passed on for its sake, and a fault in it (gzip's trailing garbage)
	// is tar's to report.
	_, _ = io.CopyN(w, r, maxTrailer)
	return nil
}

// decompress returns the tar stream src holds: gzip when gz is set, as
// tar -xzf; otherwise gzip and bzip2 are recognised and undone, as tar -xf
// does.
func decompress(src io.Reader, gz bool) (io.Reader, error) {
	br := bufio.NewReader(src)
	if gz {
		return gzip.NewReader(br)
	}
	magic, _ := br.Peek(3)
	switch {
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		return gzip.NewReader(br)
	case bytes.HasPrefix(magic, []byte("BZh")):
		return bzip2.NewReader(br), nil
	}
	return br, nil
}
