package mount

import (
	"context"
	"fmt"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/internal/textfile"
	"github.com/reactive-ccm/ccm/watchers/mountinfo"
)

// fstab is the file persist keeps the mount's line in.
const fstab = "/etc/fstab"

// lineEdit is how fstab's lines for the mount point must change; kind is
// "" when they are as wanted.
type lineEdit struct {
	// kind is textfile.Added, Replaced or Removed.
	kind string
	// old is the first line for the point, when there is one; at its
	// number, from 1.
	old string
	at  int
	// out are fstab's lines as wanted.
	out []string
}

// fstabLine is the wanted line: device, point, type, options, no dump,
// no fsck pass.
func (m *mount) fstabLine() string {
	opts := "defaults"
	if len(m.options) > 0 {
		opts = strings.Join(m.options, ",")
	}
	return strings.Join([]string{escape(m.device), escape(m.point), m.fstype, opts, "0", "0"}, " ")
}

// escape writes a space in a path as fstab(5) does.
func escape(s string) string { return strings.ReplaceAll(s, " ", `\040`) }

// fstabEdit reads fstab and works out its edit.
func (m *mount) fstabEdit() (lineEdit, error) {
	f, err := textfile.Read(safepath.Policy{}, fstab)
	if err != nil {
		return lineEdit{}, err
	}
	defer f.Close()
	return m.edit(textfile.Lines(f.Content)), nil
}

// edit brings the lines for the mount point to the wanted one (none for
// ensure: absent): the first in place, later ones removed, a missing one
// appended.
func (m *mount) edit(lines []string) lineEdit {
	var hits []int
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) >= 2 && !strings.HasPrefix(f[0], "#") && mountinfo.Unescape(f[1]) == m.point {
			hits = append(hits, i)
		}
	}
	want := m.fstabLine()
	out, kind, at := textfile.PutLine(lines, hits, want, m.ensure == Absent, func(l string) bool { return strings.Join(strings.Fields(l), " ") == want })
	switch kind {
	case "":
		return lineEdit{}
	case textfile.Added:
		return lineEdit{kind: kind, at: at, out: out}
	}
	return lineEdit{kind: kind, old: lines[hits[0]], at: at, out: out}
}

// difference describes the edit, observed → desired.
func (e lineEdit) difference() resources.Difference {
	switch e.kind {
	case textfile.Added:
		return resources.Differs("fstab", "absent", e.out[len(e.out)-1])
	case textfile.Removed:
		return resources.Differs("fstab", e.old, "absent")
	}
	d := resources.Differs("fstab", e.old, e.out[e.at-1])
	d.Note = fmt.Sprintf("line %d", e.at)
	return d
}

// writeFstab makes the edit, reading fstab again under this process's
// lock on it, once no program has it open for writing.
func (m *mount) writeFstab(ctx context.Context) error {
	defer textfile.Lock(fstab)()
	f, err := textfile.ReadSettled(ctx, safepath.Policy{}, fstab)
	if err != nil {
		return err
	}
	defer f.Close()
	e := m.edit(textfile.Lines(f.Content))
	if e.kind == "" {
		return nil
	}
	return f.Replace(ctx, textfile.Join(e.out), &textfile.Attrs{Mode: 0o644})
}
