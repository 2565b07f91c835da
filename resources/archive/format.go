package archive

import (
	"io"
	"strings"
)

// format is one supported kind of archive and how to extract it.
type format struct {
	// kind is what must match between the URL and the name: .tgz and
	// .tar.gz are the same kind.
	kind string
	exts []string
	tool string
	// args builds the extraction command's arguments.
	args func(archive, dir string) []string
	// feed, for a tar, writes the archive in src to the tool's standard
	// input (archive "-"), counting it with m on the way; scan, for a zip,
	// counts what it holds before the tool opens it as a file. One of the
	// two is set.
	feed func(m *meter, src io.Reader, w io.Writer) error
	scan func(m *meter, src io.ReaderAt, size int64) error
}

var formats = []format{
	// tar reads the archive decompressed, from feed: it never sees a byte
	// that was not counted, so -z is not given.
	{kind: "tar.gz", exts: []string{".tar.gz", ".tgz"}, tool: "tar", args: tarArgs, feed: func(m *meter, src io.Reader, w io.Writer) error {
		return feedTar(m, true, src, w)
	}},
	{kind: "tar", exts: []string{".tar"}, tool: "tar", args: tarArgs, feed: func(m *meter, src io.Reader, w io.Writer) error {
		return feedTar(m, false, src, w)
	}},
	// -o overwrites without prompting: without it a re-extraction (after
	// the creates marker was deleted) would stop at unzip's "replace?"
	// prompt, where tar simply overwrites.
	{kind: "zip", exts: []string{".zip"}, tool: "unzip", args: func(a, d string) []string {
		return []string{"-o", "-d", d, a}
	}, scan: scanZip},
}

func tarArgs(a, d string) []string { return []string{"-xf", a, "-C", d} }

// formatOf returns the format a file name's extension names.
func formatOf(name string) (format, bool) {
	// As upstream, extensions are compared ignoring case (app.TAR.GZ).
	name = strings.ToLower(name)
	for _, f := range formats {
		for _, ext := range f.exts {
			if strings.HasSuffix(name, ext) {
				return f, true
			}
		}
	}
	return format{}, false
}

// extensions lists every supported extension, for error messages.
func extensions() string {
	var all []string
	for _, f := range formats {
		all = append(all, f.exts...)
	}
	return strings.Join(all, ", ")
}
