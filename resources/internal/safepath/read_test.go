package safepath

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"golang.org/x/sys/unix"
)

func TestReadFile(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		dir := tree(t)
		fifo := filepath.Join(dir, "fifo")
		if err := unix.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		big := filepath.Join(dir, "big")
		resourcetest.WriteFile(t, big, strings.Repeat("x", 11), 0o644)
		cases := []struct {
			path string
			want error
		}{
			{filepath.Join(dir, "real", "file"), nil},
			{fifo, ErrNotRegular},
			{"/dev/zero", ErrNotRegular},
			{filepath.Join(dir, "real"), ErrNotRegular},
			{big, ErrTooLarge},
			{filepath.Join(dir, "missing"), unix.ENOENT},
		}
		for _, c := range cases {
			b, err := Policy{}.ReadFile(c.path, 10)
			if c.want == nil {
				if err != nil || string(b) != "secret" {
					t.Fatalf("%s: %q %v", c.path, b, err)
				}
				continue
			}
			wantErr(t, err, c.want)
		}
	})
}

// TestReadAt: a read within the file fills p; one that reaches the end
// returns what there is and io.EOF at once.
func TestReadAt(t *testing.T) {
	f, _, err := Policy{}.OpenRegular(filepath.Join(tree(t), "real", "file"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, c := range []struct {
		off  int64
		size int
		want string
		eof  bool
	}{{0, 3, "sec", false}, {3, 3, "ret", false}, {2, 10, "cret", true}, {6, 1, "", true}} {
		p := make([]byte, c.size)
		n, err := f.ReadAt(p, c.off)
		if string(p[:n]) != c.want || errors.Is(err, io.EOF) != c.eof || err != nil && !c.eof {
			t.Errorf("ReadAt(%d bytes at %d) = %q, %v", c.size, c.off, p[:n], err)
		}
	}
}
