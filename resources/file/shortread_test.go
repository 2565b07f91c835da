package file

import (
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

func TestHashFileReads(t *testing.T) {
	long := strings.Repeat("x", 70000)
	tests := []struct {
		name    string
		content string
		// size is what the stat found.
		size int64
		// hashed is what the digest covers; reads how many reads reach the
		// file.
		hashed string
		reads  int
	}{
		{"a short read ends it", "content of file 1\n", 18, "content of file 1\n", 1},
		{"full reads go on to the end", long, 70000, long, 3},
		{"a file that grew is read one byte beyond", "content of file 1\nmore\n", 10, "content of ", 1},
		{"an empty file", "", 0, "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &countingReader{r: strings.NewReader(tt.content)}
			got, err := hashFile(t.Context(), c, tt.size)
			if err != nil {
				t.Fatal(err)
			}
			if got != digestOf(tt.hashed) {
				t.Errorf("the digest is not that of %q", tt.hashed)
			}
			if c.reads != tt.reads {
				t.Errorf("%d reads reached the file, want %d", c.reads, tt.reads)
			}
		})
	}
}
