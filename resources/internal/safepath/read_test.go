package safepath

import (
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"path/filepath"
	"strings"
	"testing"

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
