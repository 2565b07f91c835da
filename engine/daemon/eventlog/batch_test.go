package eventlog

import (
	"strings"
	"testing"
	"time"
)

// writes records each write a batchWriter makes, in order.
type writes chan string

func (w writes) Write(p []byte) (int, error) {
	w <- string(p)
	return len(p), nil
}

func TestBatchWriter(t *testing.T) {
	t.Run("lines are held until Flush, then written in one write", func(t *testing.T) {
		w := make(writes, 10)
		b := newBatchWriter(w, time.Hour)
		b.Write([]byte("one\n"))
		b.Write([]byte("two\n"))
		b.Flush()
		if got := <-w; got != "one\ntwo\n" {
			t.Fatalf("first write %q", got)
		}
		b.Flush()
		if len(w) != 0 {
			t.Fatalf("Flush with nothing held wrote %q", <-w)
		}
	})
	t.Run("held lines are written out by themselves after the delay", func(t *testing.T) {
		w := make(writes, 10)
		b := newBatchWriter(w, time.Millisecond)
		b.Write([]byte("late\n"))
		if got := <-w; got != "late\n" {
			t.Fatalf("write %q", got)
		}
	})
	t.Run("a full batch is written at once", func(t *testing.T) {
		w := make(writes, 10)
		b := newBatchWriter(w, time.Hour)
		b.Write([]byte("held\n"))
		b.Write([]byte(strings.Repeat("x", batchLimit)))
		select {
		case got := <-w:
			if want := len("held\n") + batchLimit; len(got) != want || !strings.HasPrefix(got, "held\n") {
				t.Fatalf("wrote %d bytes, want the %d held", len(got), want)
			}
		default:
			t.Fatal("a full batch was held")
		}
		b.Flush()
	})
}
