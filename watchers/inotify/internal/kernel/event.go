package kernel

import "path/filepath"

// Event is one inotify event, named by the watched directory it came
// from and the child it is about.
type Event struct {
	// Dir is the watched directory, as it was watched.
	Dir string
	// Name is the child the event is about, without a slash; empty for
	// events about Dir itself (IN_DELETE_SELF, IN_MOVE_SELF, IN_UNMOUNT,
	// and IN_ATTRIB on it) and for a queue overflow. It points into the
	// instance's read buffer, so that events nobody wants cost no
	// allocation: it is valid only until the Handler it was passed to
	// returns.
	Name []byte
	// Mask holds the IN_* bits the kernel reported.
	Mask uint32
	// Cookie pairs the IN_MOVED_FROM and IN_MOVED_TO of one rename.
	Cookie uint32
}

// Has reports whether any of bits is set in the event's mask.
func (ev Event) Has(bits uint32) bool { return ev.Mask&bits != 0 }

// Path is the path the event is about: Dir joined with Name, Dir for
// events about the directory itself, "" for a queue overflow.
func (ev Event) Path() string {
	if len(ev.Name) == 0 {
		return ev.Dir
	}
	return filepath.Join(ev.Dir, string(ev.Name))
}
