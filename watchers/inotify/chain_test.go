package inotify

import "testing"

func TestIsUnder(t *testing.T) {
	for _, c := range []struct {
		path, dir string
		want      bool
	}{
		{"/a/b", "/a/b", true},
		{"/a/b/c", "/a/b", true},
		{"/a/b/c/d", "/a/b", true},
		{"/a/bc", "/a/b", false},
		{"/a", "/a/b", false},
		{"/x/b/c", "/a/b", false},
		{"/a", "/", true},
	} {
		if got := isUnder(c.path, c.dir); got != c.want {
			t.Errorf("isUnder(%q, %q) = %v, want %v", c.path, c.dir, got, c.want)
		}
	}
}
