package file

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"golang.org/x/sys/unix"
)

// digest identifies content: its size, compared first because it is free,
// and its sha256.
type digest struct {
	size int64
	sum  [sha256.Size]byte
}

// content is what a file with managed content must hold.
type content interface {
	// digest returns the wanted content's digest; links is the resource's
	// symlink policy, for files it reads.
	digest(ctx context.Context, links safepath.Policy) (digest, error)
	// open returns the wanted content, for writing it.
	open(links safepath.Policy) (io.ReadCloser, error)
	// watch returns the paths whose change changes the wanted content.
	watch() []string
	// readsFiles reports whether templates read files to make the content.
	readsFiles() bool
	// wrote records that the resource wrote what open last gave, whose
	// digest is d.
	wrote(d digest)
	// written returns the digest of the content the resource last wrote
	// while it stands for the wanted content (see inline.written).
	written() (digest, bool)
}

// inline is the content property. The last resolved text is kept, and
// its digest once something asks for it: a check compares a file of the
// same size with the text itself, byte for byte (sameContent), and a write
// hashes what it writes.
type inline struct {
	text resources.Deferred

	mu   sync.Mutex
	last string
	ok   bool
	// sum is last's digest when summed.
	sum    digest
	summed bool
	// mine is the digest of the text last written, valid when wroteOK.
	mine    digest
	wroteOK bool
}

var _ content = (*inline)(nil)

// resolve returns the wanted text, and its digest when sum is set.
func (c *inline) resolve(sum bool) (string, digest, error) {
	text, err := c.text.Resolve()
	if err != nil {
		return "", digest{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.ok || text != c.last {
		c.last, c.ok, c.summed = text, true, false
	}
	if sum && !c.summed {
		c.sum, c.summed = digestOf(c.last), true
	}
	return c.last, c.sum, nil
}

func (c *inline) digest(context.Context, safepath.Policy) (digest, error) {
	_, d, err := c.resolve(true)
	return d, err
}

func (c *inline) open(safepath.Policy) (io.ReadCloser, error) {
	text, _, err := c.resolve(false)
	return io.NopCloser(strings.NewReader(text)), err
}

// watch returns the files its templates read by name (readFile('motd.txt')).
func (c *inline) watch() []string { return c.text.FilesRead() }

func (c *inline) readsFiles() bool { return c.text.ReadsFiles() }

// wrote records the digest of the last text resolved, which open gave:
// the engine calls a resource from one goroutine at a time.
func (c *inline) wrote(d digest) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mine, c.wroteOK = d, true
	c.sum, c.summed = d, true
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

// MaxSourceSize bounds a source file: it is hashed on every check and
// copied whole.
const MaxSourceSize = 1 << 30

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

func (s *source) digest(ctx context.Context, links safepath.Policy) (digest, error) {
	r, err := s.open(links)
	if err != nil {
		return digest{}, err
	}
	defer r.Close()
	d, err := hashReader(ctx, r, MaxSourceSize)
	if err != nil {
		return digest{}, fmt.Errorf("source: %w", err)
	}
	return d, nil
}

// open opens the source, a regular file of at most MaxSourceSize bytes,
// through the resource's symlink policy.
func (s *source) open(links safepath.Policy) (io.ReadCloser, error) {
	p, err := s.resolve()
	if err != nil {
		return nil, err
	}
	f, size, err := links.OpenRegular(p)
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	if size > MaxSourceSize {
		err := fmt.Errorf("source: %s: %w: %d bytes, at most %d", p, safepath.ErrTooLarge, size, MaxSourceSize)
		return nil, errors.Join(err, f.Close())
	}
	return f, nil
}

func (s *source) readsFiles() bool { return s.path.ReadsFiles() }

// A source is hashed on every check: what was written is no guide.
func (s *source) wrote(digest)            {}
func (s *source) written() (digest, bool) { return digest{}, false }

// watch returns the source path when it can be known before the first
// check (a template error is reported by that check instead), and the
// files the path's templates read by name.
func (s *source) watch() []string {
	read := s.path.FilesRead()
	p, err := s.resolve()
	if err != nil {
		return read
	}
	return append(read, p)
}

var bufPool = sync.Pool{New: func() any { return new([32 << 10]byte) }}

// hashTarget digests the file base in dir, which a check found to be a
// regular file of size bytes (hashFile). O_NONBLOCK keeps a FIFO swapped
// in after the stat from blocking the open.
func hashTarget(ctx context.Context, dir *safepath.Dir, base string, size int64) (digest, error) {
	f, err := dir.Open(base, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		return digest{}, err
	}
	defer f.Close()
	return hashFile(ctx, f, size)
}

// hashFile digests f from its start, a regular file a stat found to be of
// size bytes. It reads at most one byte more: a file swapped for a FIFO or
// one that grows cannot keep the check reading, and a file that grew
// differs anyway. It ends at the first short read: the kernel returns less
// than asked only at the end of a regular file, and the read that would
// confirm it costs a system call per check. Data appended after that read
// is the writer's event's business.
func hashFile(ctx context.Context, f io.ReaderAt, size int64) (digest, error) {
	buf := bufPool.Get().(*[32 << 10]byte)
	defer bufPool.Put(buf)
	h := sha256.New()
	var d digest
	for d.size <= size {
		if err := ctx.Err(); err != nil {
			return digest{}, err
		}
		want := int(min(int64(len(buf)), size+1-d.size))
		n, err := f.ReadAt(buf[:want], d.size)
		h.Write(buf[:n])
		d.size += int64(n)
		if errors.Is(err, io.EOF) || err == nil && n < want {
			break
		}
		if err != nil {
			return digest{}, err
		}
	}
	h.Sum(d.sum[:0])
	return d, nil
}

// sameContent reports whether f, a regular file a stat found to be of
// len(want) bytes, holds want. It reads as hashFile does: at most one byte
// more than want, ending at the first short read.
func sameContent(ctx context.Context, f io.ReaderAt, want string) (bool, error) {
	buf := bufPool.Get().(*[32 << 10]byte)
	defer bufPool.Put(buf)
	for off := 0; ; {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		ask := min(len(buf), len(want)+1-off)
		n, err := f.ReadAt(buf[:ask], int64(off))
		if n > len(want)-off || string(buf[:n]) != want[off:off+n] {
			return false, nil
		}
		off += n
		if errors.Is(err, io.EOF) || err == nil && n < ask {
			return off == len(want), nil
		}
		if err != nil {
			return false, err
		}
	}
}

// hashReader digests r, stopping early when ctx is cancelled, and refuses
// content longer than max bytes.
func hashReader(ctx context.Context, r io.Reader, max int64) (digest, error) {
	buf := bufPool.Get().(*[32 << 10]byte)
	defer bufPool.Put(buf)
	h := sha256.New()
	var d digest
	for {
		if err := ctx.Err(); err != nil {
			return digest{}, err
		}
		n, err := r.Read(buf[:int(min(int64(len(buf)), max-d.size+1))])
		h.Write(buf[:n])
		d.size += int64(n)
		if d.size > max {
			return digest{}, fmt.Errorf("%w: more than %d bytes", safepath.ErrTooLarge, max)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return digest{}, err
		}
	}
	h.Sum(d.sum[:0])
	return d, nil
}
