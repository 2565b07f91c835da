package archive

import (
	"net/url"
	"path/filepath"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
)

func init() {
	resources.Register(resources.Type{Name: "archive", New: New, Props: props{}, Redact: redactProps,
		Help: "Download an archive over HTTP(S), verify it and extract it", NameHelp: "the absolute path of the archive file",
		Timeout: 15 * time.Minute})
}

const (
	ensurePresent = "present"
	ensureAbsent  = "absent"
	providerHTTP  = "http"

	// extractTimeout bounds tar and unzip, as the seed documents say.
	extractTimeout = time.Minute
	// stallTimeout fails a download that receives nothing for this long,
	// whether connecting, waiting for headers or reading the body. A total
	// bound would fail large archives on slow links that are progressing.
	stallTimeout = time.Minute
)

// props are the archive's manifest properties.
type props struct {
	Ensure        string            `yaml:"ensure" help:"present (the default) or absent (removes the archive file only)" enum:"present,absent" cli:"default=present"`
	Provider      string            `yaml:"provider" help:"the provider: http" enum:"http"`
	URL           string            `yaml:"url" help:"http:// or https:// address of the archive" cli:"arg=1"`
	Checksum      string            `yaml:"checksum" help:"expected SHA-256 of the archive, in hex"`
	ExtractParent string            `yaml:"extract_parent" help:"directory to extract into (created 0755 when missing)" cli:"alias=extract"`
	Creates       string            `yaml:"creates" help:"a path the extraction produces; while it exists nothing is extracted again"`
	Cleanup       bool              `yaml:"cleanup" help:"delete the archive after extraction (needs extract_parent and creates)"`
	Owner         string            `yaml:"owner" help:"owner of the archive file (on the command line USER:GROUP sets the group too)" cli:"default=@user,split=group"`
	Group         string            `yaml:"group" help:"group of the archive file" cli:"default=@group"`
	Username      string            `yaml:"username" help:"HTTP basic auth user"`
	Password      string            `yaml:"password" help:"HTTP basic auth password" cli:"env=HTTP_PASSWORD"`
	Headers       map[string]string `yaml:"headers" help:"extra HTTP request headers (on the command line NAME:VALUE)" cli:"flag=header,alias=headers,short=H,sep=:"`
	// FollowSymlinks lists symlinks on the way to the archive,
	// extract_parent or creates that may be followed although someone
	// other than root controls them.
	FollowSymlinks []string `yaml:"follow_symlinks" help:"symlinks on the way to the archive, extract_parent or creates that may be followed although a user other than root controls them"`
}

// archive is one archive resource. Its fields are fixed after New.
type archive struct {
	name string
	p    props
	// url has no userinfo: credentials travel in the Authorization header.
	url     *url.URL
	user    string
	pass    string
	auth    bool
	format  format
	secrets redactor
	// links says which symlinks on the way to its paths may be followed
	// besides root's own.
	links safepath.Policy
	// Timeouts are fields so tests can shorten them, and limits so they
	// can lower the bounds.
	extractTimeout time.Duration
	stallTimeout   time.Duration
	limits         func(dir string) (limits, error)
}

var _ resources.Resource = (*archive)(nil)

// New builds an archive resource from its manifest properties. Every
// problem with them is reported at once.
func New(spec *resources.Spec) (resources.Instance, error) {
	var p props
	var errs resources.ErrorList
	errs.Add(spec.Pos, spec.Decode(&p))
	a := newArchive(spec, p, &errs)
	if err := errs.Err(); err != nil {
		return resources.Instance{}, err
	}
	providers := []resources.Provider{{Name: providerHTTP, Priority: 1, Usable: resources.NeedsCommands(a.format.tool)}}
	return resources.Instance{
		Resource: resources.IfUsable(a, a.p.Provider, providers),
		Provider: providerHTTP,
		Ensure:   a.p.Ensure,
		// The archive file is ours, and so is the creates marker its
		// extraction produces: resources under either wait for it.
		Owns: nonEmpty(a.name, a.p.Creates),
		// The archive's directory and the extraction directory must exist
		// (or be managed) first. extract_parent is used, not owned: it
		// usually exists already and is often managed by a file resource.
		Uses: nonEmpty(a.name, a.p.ExtractParent),
	}, nil
}

func newArchive(spec *resources.Spec, p props, errs *resources.ErrorList) *archive {
	if p.Ensure == "" {
		p.Ensure = ensurePresent
	}
	v := validator{spec: spec, errs: errs}
	u := v.url(p.URL, spec.Name)
	v.props(&p)
	f, _ := formatOf(spec.Name)
	a := &archive{
		name: spec.Name, p: p, format: f,
		secrets:        newRedactor(u, p.Password, p.Headers),
		extractTimeout: extractTimeout,
		stallTimeout:   stallTimeout,
		limits:         limitsFor,
	}
	a.url, a.user, a.pass, a.auth = credentials(u, p.Username, p.Password)
	var err error
	if a.links, err = safepath.Allow(p.FollowSymlinks...); err != nil {
		errs.Addf(spec.KeyPos("follow_symlinks"), "follow_symlinks: %v", err)
	}
	return a
}

// credentials takes userinfo out of u; the username and password
// properties win over it.
func credentials(u *url.URL, username, password string) (*url.URL, string, string, bool) {
	c := *u
	c.User = nil
	if username != "" {
		return &c, username, password, true
	}
	if u.User != nil {
		p, _ := u.User.Password()
		return &c, u.User.Username(), p, true
	}
	return &c, "", "", false
}

func nonEmpty(paths ...string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if p != "" {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}
