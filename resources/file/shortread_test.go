package file

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// countingReader counts the reads that reach it.
type countingReader struct {
	r     io.Reader
	reads int
}

func (c *countingReader) Read(p []byte) (int, error) {
	c.reads++
	return c.r.Read(p)
}

func TestEndAtShortRead(t *testing.T) {
	tests := []struct {
		name    string
		content string
		// buf is how much each read asks for.
		buf int
		// reads is how many reads reach the file until io.EOF.
		reads int
	}{
		{"a short read ends it", "content of file 1\n", 64, 1},
		{"full reads go on to the end", strings.Repeat("x", 64), 32, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &countingReader{r: strings.NewReader(tt.content)}
			r := io.LimitReader(&endAtShortRead{r: c}, int64(len(tt.content)+1))
			var got []byte
			buf := make([]byte, tt.buf)
			for {
				n, err := r.Read(buf)
				got = append(got, buf[:n]...)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if string(got) != tt.content {
				t.Fatalf("read %q, want %q", got, tt.content)
			}
			if c.reads != tt.reads {
				t.Errorf("%d reads reached the file, want %d", c.reads, tt.reads)
			}
		})
	}
}
