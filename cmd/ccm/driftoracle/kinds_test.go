package driftoracle_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/sys/unix"
)

// kind is one resource type the oracle drives. A new type joins the
// oracle by adding a kind to kinds.
type kind struct {
	name string
	// generate adds resources of kind k to the tree g builds; kinds
	// generate in the order of the table.
	generate func(g *gen, k *kind)
	// modes are the modes generated resources have.
	modes []os.FileMode
	// entry is the resource's manifest entry, a YAML flow mapping under
	// the type key manifestType.
	manifestType string
	entry        func(r *resource) string
	// holds says how the host differs from r's desired state; "" when it
	// is in it.
	holds func(r *resource) string
	// operator undoes what ccm leaves to an operator on purpose (it
	// reports a directory where a file should be, and does not remove
	// it), and says whether it had to; it runs on every resource of the
	// kind at the end of each burst. Nil when ccm repairs every drift
	// itself.
	operator func(r *resource) (bool, error)
	tampers  []tamper
}

// tamper is one way to change a resource behind ccm's back. Errors are
// recorded, not fatal: another goroutine (or ccm) may have changed the
// path first.
type tamper struct {
	name string
	do   func(h *hand, r *resource) error
}

// kinds is the table of resource types.
var kinds = []*kind{dirKind, fileKind, lineFileKind, lineKind, sysctlKind, mountKind, groupKind, userKind, keyKind}

// account is a user or group, by name (for the manifest) and id.
type account struct {
	name string
	id   int
}

var (
	owners = []account{{"root", 0}, {"daemon", 1}, {"bin", 2}, {"nobody", 65534}}
	groups = []account{{"root", 0}, {"daemon", 1}, {"bin", 2}, {"nogroup", 65534}}
)

// resource is one managed thing of the generated tree and its desired
// state.
type resource struct {
	kind         *kind
	path         string
	mode         os.FileMode
	owner, group account
	// content is a file's.
	content []byte
}

func (r *resource) String() string { return r.kind.name + "#" + r.path }

// short is r's kind and path below the tree's base, shortened.
func (r *resource) short() string {
	_, rel, found := strings.Cut(r.path, "/tree/")
	if !found {
		rel = r.path
	}
	return r.kind.name + "#" + shorten(rel)
}

// shorten shortens the long runs of one letter padding names in s
// ("d8-aaaaaaaa" is "d8-a×8").
func shorten(s string) string {
	return padding.ReplaceAllStringFunc(s, func(run string) string {
		return fmt.Sprintf("%c×%d", run[0], len(run))
	})
}

var padding = regexp.MustCompile(`a{8,}|b{8,}|c{8,}|d{8,}|e{8,}|f{8,}|g{8,}|h{8,}|i{8,}|j{8,}|k{8,}|l{8,}|m{8,}|n{8,}|o{8,}|p{8,}|q{8,}|r{8,}|s{8,}|t{8,}|u{8,}|v{8,}|w{8,}|x{8,}|y{8,}|z{8,}`)

// attrs says how the mode, owner and group of st differ from r's.
func attrs(r *resource, st *unix.Stat_t) string {
	var diffs []string
	if got := os.FileMode(st.Mode & 0o7777); got != r.mode {
		diffs = append(diffs, fmt.Sprintf("mode %04o, want %04o", got, r.mode))
	}
	if int(st.Uid) != r.owner.id {
		diffs = append(diffs, fmt.Sprintf("owner %d, want %d", st.Uid, r.owner.id))
	}
	if int(st.Gid) != r.group.id {
		diffs = append(diffs, fmt.Sprintf("group %d, want %d", st.Gid, r.group.id))
	}
	return strings.Join(diffs, ", ")
}

// lstat describes the type of what stands at path, and its stat.
func lstat(path string) (string, *unix.Stat_t) {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return "missing (" + err.Error() + ")", nil
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		return "file", &st
	case unix.S_IFDIR:
		return "directory", &st
	case unix.S_IFLNK:
		return "symlink", &st
	}
	return fmt.Sprintf("type %#o", st.Mode&unix.S_IFMT), &st
}

func entryOf(r *resource, ensure, extra string) string {
	return fmt.Sprintf("{ensure: %s, mode: \"%04o\", owner: %s, group: %s%s}", ensure, r.mode, r.owner.name, r.group.name, extra)
}

// holdsAs checks that a want (file or directory) with r's attributes
// stands at r.path.
func holdsAs(r *resource, want string) string {
	got, st := lstat(r.path)
	if got != want {
		return got + ", want a " + want
	}
	return attrs(r, st)
}

// Tampers shared by every kind that lives at a path.
var (
	chmod = tamper{"chmod", func(h *hand, r *resource) error {
		return os.Chmod(r.path, h.other(r.mode))
	}}
	chown = tamper{"chown", func(h *hand, r *resource) error {
		return os.Lchown(r.path, h.pick(owners).id, h.pick(groups).id)
	}}
	renameAway = tamper{"rename away", func(h *hand, r *resource) error {
		return os.Rename(r.path, h.away(r.path))
	}}
	renameAwayAndBack = tamper{"rename away and back", func(h *hand, r *resource) error {
		away := h.away(r.path)
		return errors.Join(os.Rename(r.path, away), os.Rename(away, r.path))
	}}
	noiseBeside = tamper{"noise beside", func(h *hand, r *resource) error {
		noise := filepath.Join(filepath.Dir(r.path), h.noiseName())
		err := os.WriteFile(noise, h.bytes(64), 0o644)
		if h.rng.IntN(2) == 0 {
			err = errors.Join(err, os.Remove(noise))
		}
		return err
	}}
)

var fileKind = &kind{
	name:         "file",
	generate:     generateFiles,
	modes:        []os.FileMode{0o644, 0o600, 0o640, 0o444, 0o755, 0o660, 0o400},
	manifestType: "file",
	entry: func(r *resource) string {
		return entryOf(r, "present", fmt.Sprintf(", content: %q", r.content))
	},
	holds: func(r *resource) string {
		if why := holdsAs(r, "file"); why != "" {
			return why
		}
		b, err := os.ReadFile(r.path)
		switch {
		case err != nil:
			return err.Error()
		case !bytes.Equal(b, r.content):
			return fmt.Sprintf("content of %d bytes %.40q, want %d bytes %.40q", len(b), b, len(r.content), r.content)
		}
		return ""
	},
	operator: func(r *resource) (bool, error) {
		// ccm refuses to replace a directory by a file.
		if got, _ := lstat(r.path); got == "directory" {
			return true, os.RemoveAll(r.path)
		}
		return false, nil
	},
	tampers: []tamper{
		{"unlink", func(_ *hand, r *resource) error { return os.Remove(r.path) }},
		renameAway, renameAwayAndBack, chmod, chown,
		{"truncate", func(h *hand, r *resource) error {
			return os.Truncate(r.path, int64(h.rng.IntN(len(r.content)+1)/2))
		}},
		{"append", func(h *hand, r *resource) error {
			f, err := os.OpenFile(r.path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				return err
			}
			_, err = f.Write(h.bytes(1 + h.rng.IntN(100)))
			return errors.Join(err, f.Close())
		}},
		{"rewrite in place", func(h *hand, r *resource) error {
			// The same size, other bytes: only the content's hash tells.
			f, err := os.OpenFile(r.path, os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			b := bytes.ToUpper(r.content)
			if bytes.Equal(b, r.content) {
				b = append(b, '!')
			}
			_, err = f.WriteAt(b, 0)
			return errors.Join(err, f.Close())
		}},
		{"atomic replace", func(h *hand, r *resource) error {
			tmp := h.away(r.path)
			return errors.Join(os.WriteFile(tmp, h.bytes(len(r.content)), r.mode), os.Rename(tmp, r.path))
		}},
		{"symlink where the file was", func(h *hand, r *resource) error {
			return errors.Join(os.Remove(r.path), os.Symlink(h.scratchFile(), r.path))
		}},
		{"directory where the file was", func(h *hand, r *resource) error {
			return errors.Join(os.Remove(r.path), os.Mkdir(r.path, 0o755))
		}},
		noiseBeside,
	},
}

var dirKind = &kind{
	name:         "directory",
	generate:     generateDirs,
	modes:        []os.FileMode{0o755, 0o750, 0o700, 0o775, 0o711},
	manifestType: "file",
	entry:        func(r *resource) string { return entryOf(r, "directory", "") },
	holds:        func(r *resource) string { return holdsAs(r, "directory") },
	tampers: []tamper{
		{"rm -rf", func(_ *hand, r *resource) error { return os.RemoveAll(r.path) }},
		renameAway, renameAwayAndBack, chmod, chown,
		{"file where the directory was", func(h *hand, r *resource) error {
			return errors.Join(os.RemoveAll(r.path), os.WriteFile(r.path, h.bytes(10), 0o644))
		}},
		{"symlink where the directory was", func(h *hand, r *resource) error {
			return errors.Join(os.RemoveAll(r.path), os.Symlink(h.scratchDir(), r.path))
		}},
		{"noise inside", func(h *hand, r *resource) error {
			return os.WriteFile(filepath.Join(r.path, h.noiseName()), h.bytes(64), 0o644)
		}},
		noiseBeside,
	},
}
