package archive

import "strings"

// format is one supported kind of archive and how to extract it.
type format struct {
	// kind is what must match between the URL and the name: .tgz and
	// .tar.gz are the same kind.
	kind string
	exts []string
	tool string
	// args builds the extraction command's arguments.
	args func(archive, dir string) []string
}

var formats = []format{
	{kind: "tar.gz", exts: []string{".tar.gz", ".tgz"}, tool: "tar", args: func(a, d string) []string {
		return []string{"-xzf", a, "-C", d}
	}},
	{kind: "tar", exts: []string{".tar"}, tool: "tar", args: func(a, d string) []string {
		return []string{"-xf", a, "-C", d}
	}},
	// -o overwrites without prompting: without it a re-extraction (after
	// the creates marker was deleted) would stop at unzip's "replace?"
	// prompt, where tar simply overwrites.
	{kind: "zip", exts: []string{".zip"}, tool: "unzip", args: func(a, d string) []string {
		return []string{"-o", "-d", d, a}
	}},
}

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
