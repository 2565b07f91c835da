package mountinfo

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	table := strings.Join([]string{
		`36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue`,
		`40 27 0:35 / /srv/with\040space ro,relatime shared:5 - tmpfs ccm\040data rw,size=1024k`,
		`malformed line`,
		``,
	}, "\n")
	got := Parse(table)
	if len(got) != 2 {
		t.Fatalf("parsed %d entries, want 2: %+v", len(got), got)
	}
	want := Entry{ID: "40", Parent: "27", Device: "0:35", Root: "/", Point: "/srv/with space", Options: "ro,relatime",
		FSType: "tmpfs", Source: "ccm data", Super: "rw,size=1024k"}
	if got[1] != want {
		t.Errorf("entry %+v, want %+v", got[1], want)
	}
	if got[0].Point != "/mnt/parent" || got[0].Root != "/mnt1" || got[0].FSType != "ext3" {
		t.Errorf("entry %+v", got[0])
	}
}

// TestPointsOf: a mount over another at the same point changes that
// point's group and no other.
func TestPointsOf(t *testing.T) {
	before := "1 0 0:1 / /a rw - tmpfs t rw\n2 0 0:2 / /b rw - tmpfs t rw\n"
	after := before + "3 1 0:3 / /a rw - tmpfs u rw\n"
	b, a := pointsOf(before), pointsOf(after)
	if b["/a"] == a["/a"] || b["/b"] != a["/b"] {
		t.Errorf("groups before %q after %q", b, a)
	}
}

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{`a\040b`: "a b", `a\134b`: `a\b`, `a\0`: `a\0`, `plain`: "plain", `\011x\012`: "\tx\n"} {
		if got := Unescape(in); got != want {
			t.Errorf("Unescape(%q) = %q, want %q", in, got, want)
		}
	}
}
