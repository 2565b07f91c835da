// Package scaffold is the scaffold resource: a whole directory rendered
// from a tree of templates by the choria provider, which uses
// github.com/choria-io/scaffold (Go text/template with sprig, or Jet).
//
// The library renders; this package decides. Each check renders the source
// into a private temporary directory, runs the post commands there, and
// compares the result with the target; an apply renders again and copies
// only what differs. This keeps the library's rendering (engines,
// delimiters, skip_empty, _partials, render and write) while giving:
//   - checks that never write to the target;
//   - post commands run without a shell, with a plain environment and a
//     timeout that stops their process group (the library's own post
//     runner has neither);
//   - atomic, synced writes, and content and permission bits compared, so
//     a chmod of a rendered file is drift too;
//   - purge and ensure: absent, which the library does not do.
//
// The target and the source are opened through package safepath: no
// symlink someone other than root controls is followed on the way to them,
// and below the target none at all; every write, purge and removal is
// made relative to the descriptor of the directory it happens in.
//
// A change can be kept and taken back (resources.Undoable, for rollback):
// Save keeps every file of the target the scaffold renders or would purge,
// content and attributes, and Restore writes them back through the same
// descriptors and atomic writes as Apply.
//
// A purging scaffold never targets / or a top-level system directory, and
// source and target never overlap in a way that would make a render feed
// on its own output or purge its own templates.
package scaffold
