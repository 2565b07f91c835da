package resources

// Templates resolves template expressions ({{ }} and ${ }) in manifest
// values. The graph supplies one per manifest; resources use it through
// their Spec for properties resolved at parse time, and keep it to resolve
// deferred properties just before they run.
type Templates interface {
	// Value resolves s. A string that is exactly one expression keeps the
	// expression's type; anything else becomes a string.
	Value(s string) (any, error)
	// String resolves every expression in s and returns the text.
	String(s string) (string, error)
	// HasExpr reports whether s contains an expression.
	HasExpr(s string) bool
	// ReadsFiles reports whether resolving s may read files (readFile,
	// file, template, jet), whose content an earlier resource may write.
	ReadsFiles(s string) bool
	// FilesRead returns the files resolving s reads whose names are
	// written in it (readFile('motd.txt')), for a watching daemon to
	// watch.
	FilesRead(s string) []string
	// Vars returns the variables templates see (facts, data, environ),
	// for template engines such as scaffold's.
	Vars() map[string]any
	// Fingerprint changes whenever the values templates can see change, so
	// a reload can tell whether a templated resource changed.
	Fingerprint() string
}

// Literal is the Templates of a manifest without template support: every
// string is taken as written.
type Literal struct{}

var _ Templates = Literal{}

func (Literal) Value(s string) (any, error)     { return s, nil }
func (Literal) String(s string) (string, error) { return s, nil }
func (Literal) HasExpr(string) bool             { return false }
func (Literal) ReadsFiles(string) bool          { return false }
func (Literal) FilesRead(string) []string       { return nil }
func (Literal) Vars() map[string]any            { return map[string]any{} }
func (Literal) Fingerprint() string             { return "" }
