package file

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/reactive-ccm/ccm/resources"
)

// digest identifies content: its size, compared first because it is free,
// and its sha256.
type digest struct {
	size int64
	sum  [sha256.Size]byte
}

// content is what a file with managed content must hold.
type content interface {
	// digest returns the wanted content's digest.
	digest(ctx context.Context) (digest, error)
	// open returns the wanted content, for writing it.
	open() (io.ReadCloser, error)
	// watch returns the paths whose change changes the wanted content.
	watch() []string
	// readsFiles reports whether templates read files to make the content.
	readsFiles() bool
	// wrote records that the resource wrote what open last gave.
	wrote()
	// written returns the digest of the content the resource last wrote
	// while it stands for the wanted content (see inline.written).
	written() (digest, bool)
}

// inline is the content property. The digest of the last resolved text is
// kept, so an unchanged file is checked without hashing the wanted content.
type inline struct {
	text resources.Deferred

	mu   sync.Mutex
	last string
	sum  digest
	ok   bool
	// mine is the digest of the text last written, valid when wroteOK.
	mine    digest
	wroteOK bool
}

var _ content = (*inline)(nil)

func (c *inline) resolve() (string, digest, error) {
	text, err := c.text.Resolve()
	if err != nil {
		return "", digest{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.ok || text != c.last {
		c.last, c.sum, c.ok = text, digestOf(text), true
	}
	return c.last, c.sum, nil
}

func (c *inline) digest(context.Context) (digest, error) {
	_, d, err := c.resolve()
	return d, err
}

func (c *inline) open() (io.ReadCloser, error) {
	text, _, err := c.resolve()
	return io.NopCloser(strings.NewReader(text)), err
}

func (c *inline) watch() []string { return nil }

func (c *inline) readsFiles() bool { return c.text.ReadsFiles() }

// wrote records the digest of the last text resolved, which open gave:
// the engine calls a resource from one goroutine at a time.
func (c *inline) wrote() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mine, c.wroteOK = c.sum, true
}

// written returns the digest of the content last written. A template may
// render differently each time ({{ now() }}), so a file holding what was
// written is in the wanted state, and is rendered and written again only
// once it drifted. When the templates read files, whose changes nothing
// else would notice, it stands only for the check right after the write.
func (c *inline) written() (digest, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.mine, c.wroteOK
	if c.readsFiles() {
		c.wroteOK = false
	}
	return d, ok
}

func digestOf(s string) digest {
	return digest{size: int64(len(s)), sum: sha256.Sum256([]byte(s))}
}

// source is the source property: a local file copied verbatim, its path
// relative to the manifest's directory. It is hashed on every check, so an
// edited source is noticed.
type source struct {
	// path is checked not to resolve to an empty path.
	path resources.Deferred
	dir  string
}

var _ content = (*source)(nil)

// notEmpty refuses a source that resolved to nothing; an empty source
// without templates is refused when the manifest is validated.
func notEmpty(path string) error {
	if path == "" {
		return errors.New("resolved to an empty path")
	}
	return nil
}

func (s *source) resolve() (string, error) {
	p, err := s.path.Resolve()
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.dir, p)
	}
	return p, nil
}

func (s *source) digest(ctx context.Context) (digest, error) {
	p, err := s.resolve()
	if err != nil {
		return digest{}, err
	}
	d, err := hashFile(ctx, p)
	if err != nil {
		return digest{}, fmt.Errorf("source: %w", err)
	}
	return d, nil
}

func (s *source) open() (io.ReadCloser, error) {
	p, err := s.resolve()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	return f, nil
}

func (s *source) readsFiles() bool { return s.path.ReadsFiles() }

// A source is hashed on every check: what was written is no guide.
func (s *source) wrote()                  {}
func (s *source) written() (digest, bool) { return digest{}, false }

// watch returns the source path when it can be known before the first
// check; a template error is reported by that check instead.
func (s *source) watch() []string {
	p, err := s.resolve()
	if err != nil {
		return nil
	}
	return []string{p}
}

var bufPool = sync.Pool{New: func() any { return new([32 << 10]byte) }}

// hashFile digests the file at path, stopping early when ctx is cancelled.
// It uses the raw system calls: an os.File's bookkeeping costs as much as
// reading a small file. O_NONBLOCK keeps a FIFO swapped in after the lstat
// from blocking the check; it does not change reads of regular files.
func hashFile(ctx context.Context, path string) (digest, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return digest{}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	buf := bufPool.Get().(*[32 << 10]byte)
	defer bufPool.Put(buf)
	h := sha256.New()
	var d digest
	for {
		if err := ctx.Err(); err != nil {
			return digest{}, err
		}
		n, err := syscall.Read(fd, buf[:])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return digest{}, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			break
		}
		h.Write(buf[:n])
		d.size += int64(n)
	}
	h.Sum(d.sum[:0])
	return d, nil
}
