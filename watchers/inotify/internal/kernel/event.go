package kernel

import "path/filepath"

// Event is one inotify event, named by path.
type Event struct {
	// Path is the watched directory joined with the name of the child the
	// event is about, or the directory itself for events about it
	// (IN_DELETE_SELF, IN_MOVE_SELF, IN_UNMOUNT, and IN_ATTRIB on it).
	// It is empty for a queue overflow.
	Path string
	// Mask holds the IN_* bits the kernel reported.
	Mask uint32
	// Cookie pairs the IN_MOVED_FROM and IN_MOVED_TO of one rename.
	Cookie uint32
}

// Has reports whether any of bits is set in the event's mask.
func (ev Event) Has(bits uint32) bool { return ev.Mask&bits != 0 }

// join names a child of dir; the kernel gives the name without a slash.
func join(dir, name string) string {
	if name == "" {
		return dir
	}
	return filepath.Join(dir, name)
}
