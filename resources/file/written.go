package file

import (
	"crypto/sha256"
	"hash"
	"io"
	"sync"

	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"golang.org/x/sys/unix"
)

// written is the file this resource last wrote, kept for the check that
// follows the write: a file at the path with the same stamp is the file
// written and holds what was written, so that check need not read and
// hash it again. It is taken once; every later check reads.
type written struct {
	mu    sync.Mutex
	stamp safepath.Stamp
	sum   digest
	ok    bool
}

func (w *written) set(stamp safepath.Stamp, sum digest) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stamp, w.sum, w.ok = stamp, sum, true
}

// take returns what set kept, once.
func (w *written) take() (safepath.Stamp, digest, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	ok := w.ok
	w.ok = false
	return w.stamp, w.sum, ok
}

// know returns the digest of the file st describes when it is the file
// written, unchanged.
func know(stamp safepath.Stamp, sum digest, st *unix.Stat_t) *digest {
	if st.Mode&unix.S_IFMT != unix.S_IFREG || !stamp.Same(st) {
		return nil
	}
	return &sum
}

// digestReader digests what is read through it.
type digestReader struct {
	r    io.Reader
	h    hash.Hash
	size int64
}

func newDigestReader(r io.Reader) *digestReader {
	return &digestReader{r: r, h: sha256.New()}
}

func (d *digestReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.h.Write(p[:n])
	d.size += int64(n)
	return n, err
}

// WriteTo copies through a pooled buffer: io.Copy would allocate one.
func (d *digestReader) WriteTo(w io.Writer) (int64, error) {
	buf := bufPool.Get().(*[32 << 10]byte)
	defer bufPool.Put(buf)
	return io.CopyBuffer(w, struct{ io.Reader }{d}, buf[:])
}

func (d *digestReader) digest() digest {
	out := digest{size: d.size}
	d.h.Sum(out.sum[:0])
	return out
}
