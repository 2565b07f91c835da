package archive

import (
	"encoding/hex"
	"errors"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
)

// validator collects every problem with an archive's properties, each at
// the position of the property at fault.
type validator struct {
	spec *resources.Spec
	errs *resources.ErrorList
}

func (v validator) addf(key, format string, args ...any) {
	v.errs.Addf(v.spec.KeyPos(key), format, args...)
}

// url checks the URL and that its archive kind matches the name's. It
// never echoes the URL: it may carry credentials.
func (v validator) url(raw, name string) *url.URL {
	if raw == "" {
		v.addf("url", "url is required: the http(s) address of the archive")
		return &url.URL{}
	}
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		v.addf("url", "url is not a valid URL: %v", err)
		return &url.URL{}
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		v.addf("url", "url must use http or https, not %q", u.Scheme)
	}
	if u.Host == "" {
		v.addf("url", "url has no host")
	}
	urlFormat, ok := formatOf(path.Base(u.Path))
	if !ok {
		v.addf("url", "the url's file name must end in one of %s", extensions())
	}
	nameFormat, nameOK := formatOf(name)
	if !nameOK {
		v.errs.Addf(v.spec.Pos, "%s: the name must end in one of %s", v.spec.ID(), extensions())
	}
	if ok && nameOK && urlFormat.kind != nameFormat.kind {
		v.addf("url", "url and name must be the same kind of archive: the url is a %s, the name a %s", urlFormat.kind, nameFormat.kind)
	}
	return u
}

func (v validator) props(p *props) {
	if p.Ensure != ensurePresent && p.Ensure != ensureAbsent {
		v.addf("ensure", "ensure must be %q or %q, not %q", ensurePresent, ensureAbsent, p.Ensure)
	}
	if err := resources.KnownProvider(p.Provider, []resources.Provider{{Name: providerHTTP}}); err != nil {
		v.addf("provider", "provider: %v", err)
	}
	if !cleanAbs(v.spec.Name) {
		v.errs.Addf(v.spec.Pos, "%s: the name must be a clean absolute path, like %s", v.spec.ID(), filepath.Clean("/"+v.spec.Name))
	}
	v.path("extract_parent", p.ExtractParent)
	v.path("creates", p.Creates)
	if p.Cleanup && p.ExtractParent == "" {
		v.addf("cleanup", "cleanup requires extract_parent: only an extracted archive can be cleaned up")
	}
	if p.Cleanup && p.Creates == "" {
		v.addf("cleanup", "cleanup requires creates: without the archive, only creates tells that it was extracted")
	}
	if p.Owner == "" {
		v.addf("owner", "owner is required: the user that owns the archive file")
	}
	if p.Group == "" {
		v.addf("group", "group is required: the group that owns the archive file")
	}
	if p.Password != "" && p.Username == "" {
		v.addf("password", "password requires username")
	}
	v.checksum(p)
}

func (v validator) path(key, p string) {
	if p != "" && !cleanAbs(p) {
		v.addf(key, "%s must be a clean absolute path, like %s", key, filepath.Clean("/"+p))
	}
}

// checksum accepts a SHA-256 in hex, in either case, and keeps it lower case.
func (v validator) checksum(p *props) {
	if p.Checksum == "" {
		return
	}
	p.Checksum = strings.ToLower(p.Checksum)
	if b, err := hex.DecodeString(p.Checksum); err != nil || len(b) != 32 {
		v.addf("checksum", "checksum must be a SHA-256 in hex (64 characters), got %q", p.Checksum)
	}
}

func cleanAbs(p string) bool {
	return filepath.IsAbs(p) && filepath.Clean(p) == p
}
