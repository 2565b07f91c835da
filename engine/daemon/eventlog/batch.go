package eventlog

import (
	"bytes"
	"io"
	"sync"
	"time"
)

// batchDelay is how long a one-shot run may hold an event line before
// writing it out.
const batchDelay = 50 * time.Millisecond

// batchLimit is how much a batchWriter holds before it writes at once.
const batchLimit = 64 << 10

// batchWriter holds what a one-shot run prints and writes it out in
// batches: when its delay has passed since the first line it holds, when
// it holds batchLimit bytes, and on Flush. A run that changes a thousand
// files prints a thousand lines: one write each cost a system call each
// and woke the reader of the pipe each time. Watch mode writes each line
// at once.
type batchWriter struct {
	mu    sync.Mutex
	w     io.Writer
	delay time.Duration
	buf   bytes.Buffer
	// timer writes the batch out delay after its first line; nil while
	// nothing is held.
	timer *time.Timer
}

// newBatchWriter holds what is written to w for at most delay.
func newBatchWriter(w io.Writer, delay time.Duration) *batchWriter {
	return &batchWriter{w: w, delay: delay}
}

// Write holds p for the next batch. It never fails: errors are the
// underlying writer's to report (see dropWriter).
func (b *batchWriter) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	switch {
	case b.buf.Len() >= batchLimit:
		b.flushLocked()
	case b.timer == nil:
		b.timer = time.AfterFunc(b.delay, b.Flush)
	}
	return len(p), nil
}

// Flush writes out everything held.
func (b *batchWriter) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
}

func (b *batchWriter) flushLocked() {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	if b.buf.Len() > 0 {
		// The error is the writer's to report; see Write.
		_, _ = b.w.Write(b.buf.Bytes())
		b.buf.Reset()
	}
}
