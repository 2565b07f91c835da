package statuscache

import (
	"context"
	"errors"
	"sort"
	"sync"
	"time"
)

// Query asks the package manager about every name at once and returns the
// installed version of each installed package; a name left out of the
// result is not installed.
type Query func(ctx context.Context, names []string) (map[string]string, error)

// Options configure a Cache.
type Options struct {
	// Paths are the package database's files and directories: a change to
	// any of them, or to an entry of one of the directories, invalidates
	// every answer.
	Paths []string
	// Query runs the package manager.
	Query Query
	// HashRecent hashes the content of the files while they are too
	// recently written for their times to be trusted, so that answers can
	// be reused at once after a change. For small databases: dpkg's status
	// file, not rpm's.
	HashRecent bool
	// ForgetAfter is how long a package nobody asks about stays in the
	// queries; ten minutes when zero.
	ForgetAfter time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// defaultForgetAfter is ten polls of a package resource: a package still
// managed is asked about far more often.
const defaultForgetAfter = 10 * time.Minute

// Cache remembers what the last query found. It is safe for concurrent use.
type Cache struct {
	paths  []string
	query  Query
	hash   hashMode
	forget time.Duration
	now    func() time.Time

	mu sync.Mutex
	// asked maps a package name to when it was last asked about or
	// tracked; every query asks about every name in it.
	asked map[string]time.Time
	// begun counts the queries begun.
	begun uint64
	// last is the latest query whose answers may be reused; nil when none.
	last *flight
	// running is the query in flight; nil when none.
	running *flight
}

// flight is one query. Its fields other than done are written before done
// is closed and only read after.
type flight struct {
	// seq is the value of begun once this query began.
	seq uint64
	// fp was taken before the query began.
	fp      fingerprint
	names   []string
	done    chan struct{}
	answers map[string]string
	err     error
}

// New returns an empty cache.
func New(o Options) *Cache {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	c := &Cache{paths: o.Paths, query: o.Query, forget: o.ForgetAfter, now: now, asked: map[string]time.Time{}}
	if c.forget <= 0 {
		c.forget = defaultForgetAfter
	}
	if o.HashRecent {
		c.hash = hashIfRecent
	}
	return c
}

// Track says name will be asked about, so the first query includes it. A
// resource calls it when it is built, so that the first check of many
// packages is one query.
func (c *Cache) Track(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked[name] = c.now()
}

// Queries returns how many queries have been run.
func (c *Cache) Queries() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.begun
}

// Status returns the installed version of name, "" when it is not
// installed. The answer comes from a query that began after Status was
// called, or from memory when the database has not changed since such a
// query began. It blocks while a query runs and returns early, with ctx's
// error, when ctx is done.
func (c *Cache) Status(ctx context.Context, name string) (string, error) {
	c.mu.Lock()
	since := c.begun
	c.mu.Unlock()
	for {
		fp, err := c.fingerprint(c.hash)
		if err != nil {
			return "", err
		}
		c.mu.Lock()
		c.asked[name] = c.now()
		v, ok, verify := c.remembered(fp, name)
		if ok {
			c.mu.Unlock()
			return v, nil
		}
		if verify != nil {
			c.mu.Unlock()
			if err := c.verify(verify, fp); err != nil {
				return "", err
			}
			continue
		}
		if f := c.running; f != nil {
			c.mu.Unlock()
			v, ok, err := f.await(ctx, since, name)
			if ok || err != nil {
				return v, err
			}
			continue
		}
		f := c.begin(fp, name)
		c.mu.Unlock()
		c.run(ctx, f)
		return f.answers[name], f.err
	}
}

// remembered answers from the last query when the database is unchanged
// since it began and name was part of it. When that query was trusted by
// content and fp by its times alone, it returns the query to verify
// instead. Called with mu held.
func (c *Cache) remembered(fp fingerprint, name string) (v string, ok bool, verify *flight) {
	l := c.last
	if l == nil || fp.racy || fp.stamp != l.fp.stamp {
		return "", false, nil
	}
	// An unhashed l was trusted by its times, so its stamp alone says the
	// content is unchanged, whether or not fp was hashed.
	if l.fp.hashed {
		if !fp.hashed {
			return "", false, l
		}
		if fp.hash != l.fp.hash {
			return "", false, nil
		}
	}
	v, ok = l.answers[name]
	return v, ok, nil
}

// verify hashes the content once more for l, whose answers were trusted by
// content while the database was newly written: unchanged, l is trusted by
// fp's times from now on, which are old enough; changed, it is forgotten.
func (c *Cache) verify(l *flight, fp fingerprint) error {
	full, err := c.fingerprint(hashAlways)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last != l {
		return nil
	}
	if full.hashed && full.stamp == l.fp.stamp && full.hash == l.fp.hash {
		l.fp = fp
		return nil
	}
	c.last = nil
	return nil
}

// begin starts a query of name and of every name asked about lately, and
// forgets the names nobody asked about for longer than c.forget. Called
// with mu held.
func (c *Cache) begin(fp fingerprint, name string) *flight {
	names := []string{name}
	stale := c.now().Add(-c.forget)
	for n, at := range c.asked {
		if n == name {
			continue
		}
		if at.Before(stale) {
			delete(c.asked, n)
			continue
		}
		names = append(names, n)
	}
	sort.Strings(names)
	c.begun++
	f := &flight{seq: c.begun, fp: fp, names: names, done: make(chan struct{})}
	c.running = f
	return f
}

func (c *Cache) fingerprint(mode hashMode) (fingerprint, error) {
	return takeFingerprint(c.paths, c.now(), mode)
}

// run queries for f and remembers the answers only when the database did
// not change while the query ran, so that they describe f.fp exactly.
func (c *Cache) run(ctx context.Context, f *flight) {
	found, err := c.query(ctx, f.names)
	if err == nil {
		f.answers = make(map[string]string, len(f.names))
		for _, n := range f.names {
			f.answers[n] = found[n]
		}
	}
	f.err = err
	mode := c.hash
	if f.fp.hashed {
		mode = hashAlways
	}
	after, fpErr := c.fingerprint(mode)
	c.mu.Lock()
	c.running = nil
	c.last = nil
	if err == nil && fpErr == nil && !f.fp.racy && after == f.fp {
		c.last = f
	}
	c.mu.Unlock()
	close(f.done)
}

// await waits for f and answers from it when f began after the caller
// asked (since) and included name. ok is false when the caller must look
// again.
func (f *flight) await(ctx context.Context, since uint64, name string) (v string, ok bool, err error) {
	select {
	case <-f.done:
	case <-ctx.Done():
		return "", false, ctx.Err()
	}
	if f.seq <= since {
		return "", false, nil
	}
	if f.err != nil {
		if isContextErr(f.err) {
			// The caller that ran f gave up; this one has not.
			return "", false, nil
		}
		return "", false, f.err
	}
	v, ok = f.answers[name]
	return v, ok, nil
}

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
