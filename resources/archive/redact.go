package archive

import (
	"errors"
	"net/url"
	"sort"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
)

const redacted = "[redacted]"

// redactor removes an archive's secrets from text before it leaves the
// package. Messages are built without secrets in the first place; the
// redactor is the second line, for text that comes from libraries.
type redactor struct {
	// secrets are the password, the header values and the URL's userinfo
	// and query, longest first so a secret containing another is removed
	// whole.
	secrets []string
}

func newRedactor(u *url.URL, password string, headers map[string]string) redactor {
	var s []string
	// A value shorter than resources.MinSecret (?dl=1, X-Debug: 1) is
	// left in the text: cutting it out would cut up every number and
	// path that holds it. The whole userinfo and query are still cut.
	add := func(v string, whole bool) {
		if v != "" && (whole || len(v) >= resources.MinSecret) {
			s = append(s, v, url.QueryEscape(v), url.PathEscape(v))
		}
	}
	add(password, false)
	for _, v := range headers {
		add(v, false)
	}
	if u.User != nil {
		add(u.User.String(), true)
		add(u.User.Username(), false)
		if p, ok := u.User.Password(); ok {
			add(p, false)
		}
	}
	add(u.RawQuery, true)
	for _, vals := range u.Query() {
		for _, v := range vals {
			add(v, false)
		}
	}
	sort.Slice(s, func(i, j int) bool { return len(s[i]) > len(s[j]) })
	return redactor{secrets: s}
}

// String returns s with every secret replaced.
func (r redactor) String(s string) string {
	for _, sec := range r.secrets {
		s = strings.ReplaceAll(s, sec, redacted)
	}
	return s
}

// Err returns err with every secret removed from its message. The result
// still matches the sentinels err wraps with errors.Is, but does not
// unwrap, so no caller can reach the unredacted text.
func (r redactor) Err(err error) error {
	if err == nil {
		return nil
	}
	msg := r.String(err.Error())
	if msg == err.Error() {
		return err
	}
	return &redactedError{msg: msg, err: err}
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }

// Is lets errors.Is see the sentinels of the original error.
func (e *redactedError) Is(target error) bool { return errors.Is(e.err, target) }

// displayURL is u for messages: no userinfo, and the query, which often
// carries tokens (signed URLs), replaced.
func displayURL(u *url.URL) string {
	c := *u
	c.User = nil
	c.RawQuery = ""
	c.ForceQuery = false
	c.Fragment = ""
	s := c.String()
	if u.RawQuery != "" {
		s += "?" + redacted
	}
	return s
}

// redactProps hides the secrets among the properties a report shows: the
// password, every header value, and the URL's userinfo and query.
func redactProps(props map[string]any) {
	if _, ok := props["password"]; ok {
		props["password"] = redacted
	}
	if h, ok := props["headers"].(map[string]any); ok {
		for k := range h {
			h[k] = redacted
		}
	}
	if s, ok := props["url"].(string); ok {
		if u, err := url.Parse(s); err == nil {
			props["url"] = displayURL(u)
		} else {
			props["url"] = redacted
		}
	}
}
