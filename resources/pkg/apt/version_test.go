package apt

import (
	"errors"
	"testing"
)

func TestCompareVersions(t *testing.T) {
	// Each pair is ordered older first.
	tests := []struct {
		name         string
		older, newer string
	}{
		// The examples of the design document's table.
		{"numbers compare numerically", "1.0", "2.0"},
		{"an epoch beats everything else", "2.0", "1:1.0"},
		{"tilde sorts before the end of the string", "1.0~alpha", "1.0"},
		{"letters compare lexically", "1.0~alpha", "1.0~beta"},
		{"patch versions compare numerically", "1.0.1", "1.0.2"},
		{"revisions compare", "1.0-1", "1.0-2"},
		{"letters sort before non-letters", "1.0a", "1.0-"},
		// Debian Policy and dpkg corner cases.
		{"epochs compare as numbers", "9:99-99", "10:01-01"},
		{"a longer revision is newer", "abd-de", "abd-def"},
		{"a shorter string is older", "a1b2d-d3e", "a1b2d-d3ef"},
		{"numeric runs are not compared lexically", "a1b2d-d9", "a1b2d-d13"},
		{"tilde sorts before the end of the revision", "a1b2d-d10~", "a1b2d-d10"},
		{"letters sort before non-letters in revisions", "a1b2d-d1a", "a1b2d-d1-"},
		{"more tildes sort earlier", "1.0~~", "1.0~"},
		{"tilde with a suffix sorts before the release", "1.0~a", "1.0"},
		{"two tildes sort before one", "1.0~~a", "1.0~a"},
		{"minor versions", "1.1", "1.2"},
		{"nine before thirteen", "9", "13"},
		{"leading zeros do not count", "1.01", "1.2"},
		{"plus sorts after letters", "1.0a", "1.0+"},
		{"an empty revision is older than any", "1.0", "1.0-0.1"},
		{"ubuntu backport revisions", "3.32.2+git20190711-2ubuntu1~19.04.1", "3.32.2+git20190711-2ubuntu1"},
		{"a hyphenated upstream version", "2:1.0.0+git-20190109-0ubuntu2", "2:1.0.0+git-20190109-0ubuntu3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, c := range []struct {
				a, b string
				want int
			}{{tt.older, tt.newer, -1}, {tt.newer, tt.older, 1}, {tt.older, tt.older, 0}} {
				got, err := CompareVersions(c.a, c.b)
				if err != nil {
					t.Fatalf("CompareVersions(%q, %q): %v", c.a, c.b, err)
				}
				if got != c.want {
					t.Errorf("CompareVersions(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
				}
			}
		})
	}
}

func TestEqualVersions(t *testing.T) {
	tests := []struct{ name, a, b string }{
		{"an absent epoch is epoch 0", "0:1.0-1", "1.0-1"},
		{"leading zeros in numbers", "1.001", "1.1"},
		{"an absent revision equals an empty one", "1.0", "1.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := CompareVersions(tt.a, tt.b); err != nil || got != 0 {
				t.Errorf("CompareVersions(%q, %q) = %d, %v; want 0", tt.a, tt.b, got, err)
			}
		})
	}
}

func TestParseVersion(t *testing.T) {
	tests := []struct {
		in       string
		epoch    int
		upstream string
		revision string
	}{
		{"1:20191210.1-0ubuntu0.19.04.2", 1, "20191210.1", "0ubuntu0.19.04.2"},
		{"20191210.1-0ubuntu0.19.04.2", 0, "20191210.1", "0ubuntu0.19.04.2"},
		{"2.42.1+19.04", 0, "2.42.1+19.04", ""},
		{"3.32.2+git20190711-2ubuntu1~19.04.1", 0, "3.32.2+git20190711", "2ubuntu1~19.04.1"},
		{"5:1.0.0+git-20190109.133f4c4-0ubuntu2", 5, "1.0.0+git-20190109.133f4c4", "0ubuntu2"},
		{"1.0~beta1", 0, "1.0~beta1", ""},
		{"2:9.1.1230-2", 2, "9.1.1230", "2"},
		{"1.0-", 0, "1.0-", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			v, err := parseVersion(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if v.epoch != tt.epoch || v.upstream != tt.upstream || v.revision != tt.revision {
				t.Errorf("parseVersion(%q) = %+v, want epoch %d upstream %q revision %q", tt.in, v, tt.epoch, tt.upstream, tt.revision)
			}
		})
	}
}

func TestParseVersionRejects(t *testing.T) {
	for _, in := range []string{"", "!!!invalid!!!", "a:1.0", ":1.0", "1:", "-1", "1.0-a_b", "1.0 beta", "~1"} {
		t.Run(in, func(t *testing.T) {
			if _, err := parseVersion(in); !errors.Is(err, ErrBadVersion) {
				t.Errorf("parseVersion(%q) error = %v, want ErrBadVersion", in, err)
			}
		})
	}
}
