package file

import (
	"io"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/textdiff"
)

// countingReader counts the reads that reach it.
type countingReader struct {
	r     *strings.Reader
	reads int
}

func (c *countingReader) Read(p []byte) (int, error) {
	c.reads++
	return c.r.Read(p)
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	c.reads++
	return c.r.ReadAt(p, off)
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

// sameContent reads as hashFile does, and tells a file of the wanted
// size from the wanted text wherever they differ.
func TestSameContentReads(t *testing.T) {
	long := strings.Repeat("x", 70000)
	tests := []struct {
		name          string
		content, want string
		same          bool
		reads         int
	}{
		{"a short read ends it", "content of file 1\n", "content of file 1\n", true, 1},
		{"another byte", "content of file 2\n", "content of file 1\n", false, 1},
		{"full reads go on to the end", long, long, true, 3},
		{"the last byte of a long file", long[:69999] + "y", long, false, 3},
		{"the first byte of a long file", "y" + long[1:], long, false, 1},
		{"a file that grew is read one byte beyond", "content of file 1\nmore\n", "content of ", false, 1},
		{"a file that shrank", "content", "content of ", false, 1},
		{"an empty file", "", "", true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &countingReader{r: strings.NewReader(tt.content)}
			got, err := sameContent(t.Context(), c, tt.want)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.same {
				t.Errorf("same = %v, want %v", got, tt.same)
			}
			if c.reads != tt.reads {
				t.Errorf("%d reads reached the file, want %d", c.reads, tt.reads)
			}
		})
	}
}

func TestReadText(t *testing.T) {
	tooLong := strings.Repeat("x", textdiff.MaxInput+1)
	tests := []struct {
		name    string
		content string
		size    int64
		// want is nil for a text not compared; reads, when not zero, is how
		// many reads reach the text.
		want  []byte
		reads int
	}{
		{"a short read ends it", "content of file 1\n", 18, []byte("content of file 1\n"), 1},
		{"a text that grew is read whole", "content of file 1\nmore\n", 4, []byte("content of file 1\nmore\n"), 0},
		{"an empty text", "", 0, []byte{}, 1},
		{"a text too long", tooLong, int64(len(tooLong)), nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &countingReader{r: strings.NewReader(tt.content)}
			got, err := readText(io.NopCloser(c), nil, tt.size)
			if err != nil {
				t.Fatal(err)
			}
			if (got == nil) != (tt.want == nil) || string(got) != string(tt.want) {
				t.Errorf("read %q, want %q", got, tt.want)
			}
			if tt.reads != 0 && c.reads != tt.reads {
				t.Errorf("%d reads reached the text, want %d", c.reads, tt.reads)
			}
		})
	}
}
