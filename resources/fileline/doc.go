// Package fileline is the file_line resource: one line, or one block of
// lines between two marker lines, kept present in (or absent from) a text
// file whose other lines belong to someone else: a package's default
// configuration, the host's administrators, other file_line resources.
//
// What present means:
//   - line without match: some line of the file is line; when none is,
//     line is inserted after the last line matching after, before the
//     first line matching before, or at the end.
//   - line with match: the first line matching match is line and no other
//     line matches; a first match that differs is replaced where it
//     stands and later matches are removed; with no match at all, line is
//     inserted as above. match must match line itself.
//   - block: the lines between marker_begin and marker_end are block;
//     a new block (with its markers) is inserted as a line is.
//   - replace: false seeds once: with a line matching match (or the block's
//     markers) already there, the file is left as the host has it.
//
// ensure: absent removes every line equal to line (or matching match), or
// the block with its markers.
//
// Guarantees:
//   - Only the lines described change: the rest of the file keeps its
//     bytes (an edited file ends with a newline), and the file keeps its
//     owner, group and mode. The file must exist: file_line edits, it
//     never creates.
//   - Reads and writes go through package safepath (textfile): a symlink
//     at the path is refused, and the replacement is atomic.
//   - Resources editing the same file in this process take turns
//     (textfile.Lock), so none loses another's line.
//   - A path that a file resource also manages is allowed only when that
//     resource leaves the content alone (ensure: present without content
//     or source); anything else is refused when the manifest loads.
package fileline
