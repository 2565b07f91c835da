package release

import "testing"

// TestPick is the table of rollback's choice: by number, by a digest
// prefix of six characters or more, or, without one, the newest
// revision older than the current one that differs from it.
func TestPick(t *testing.T) {
	e := func(seq int, digest string, current bool) Entry {
		return Entry{Seq: seq, Digest: "SHA-256=" + digest, Current: current}
	}
	cases := []struct {
		name string
		all  []Entry
		want string
		seq  int // 0: none
	}{
		{"the one before", []Entry{e(1, "aaaaaaaa", false), e(2, "bbbbbbbb", true)}, "", 1},
		{"skipping copies of the current", []Entry{e(1, "aaaaaaaa", false), e(2, "bbbbbbbb", false), e(3, "bbbbbbbb", true)}, "", 1},
		{"never a newer one", []Entry{e(1, "aaaaaaaa", true), e(2, "bbbbbbbb", false)}, "", 0},
		{"nothing current (a rollback elsewhere)", []Entry{e(1, "aaaaaaaa", false), e(2, "bbbbbbbb", false)}, "", 0},
		{"only one revision", []Entry{e(1, "aaaaaaaa", true)}, "", 0},
		{"an empty history", nil, "", 0},
		{"the newest older one that differs", []Entry{e(1, "aaaaaaaa", false), e(2, "cccccccc", false), e(3, "bbbbbbbb", true)}, "", 2},
		{"by number", []Entry{e(1, "aaaaaaaa", false), e(2, "bbbbbbbb", true)}, "1", 1},
		{"by number, the current one", []Entry{e(1, "aaaaaaaa", false), e(2, "bbbbbbbb", true)}, "2", 2},
		{"by a number not kept", []Entry{e(4, "aaaaaaaa", false)}, "3", 0},
		{"by six characters of digest", []Entry{e(1, "abcdef12", false), e(2, "bbbbbbbb", true)}, "abcdef", 1},
		{"by five characters, too few", []Entry{e(1, "abcde123", false), e(2, "bbbbbbbb", true)}, "abcde", 0},
		{"a prefix of two picks the newest", []Entry{e(1, "abcdef12", false), e(2, "abcdef34", false), e(3, "bbbbbbbb", true)}, "abcdef", 2},
		{"six digits are a digest prefix, not revision 222222", []Entry{e(1, "222222aa", false), e(2, "bbbbbbbb", true)}, "222222", 1},
		{"the digest's own prefix is not matched", []Entry{e(1, "abcdef12", false)}, "SHA-25", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := pick(c.all, c.want)
			if c.seq == 0 && ok || c.seq != 0 && (!ok || got.Seq != c.seq) {
				t.Fatalf("pick(%q) = %d, %t; want %d", c.want, got.Seq, ok, c.seq)
			}
		})
	}
}
