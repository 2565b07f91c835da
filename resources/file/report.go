package file

import (
	"encoding/hex"

	"github.com/reactive-ccm/ccm/resources"
)

var _ resources.PropertyReporter = (*file)(nil)

// ReportProperties shows the content property as its SHA-256 and size
// (content: "sha256:…", content_size), never its bytes: events travel to
// the journal, the control socket and a fleet's NATS stream, where a
// mode-0600 file's content has no business. The digest is that of the
// text last resolved, or of the text as written when it holds no
// template; a template not resolved yet leaves the content out. A
// sensitive file shows neither: its content is redacted whole.
func (f *file) ReportProperties(props map[string]any) {
	in, ok := f.content.(*inline)
	if _, set := props["content"]; !set || !ok || f.sensitive {
		return
	}
	d, ok := in.reported()
	if !ok {
		delete(props, "content")
		return
	}
	props["content"] = "sha256:" + hex.EncodeToString(d.sum[:])
	props["content_size"] = d.size
}

// reported returns the digest of the text last resolved, or of the text
// as written when it holds no template.
func (c *inline) reported() (digest, bool) {
	c.mu.Lock()
	ok := c.ok
	if ok && !c.summed {
		c.sum, c.summed = digestOf(c.last), true
	}
	d := c.sum
	c.mu.Unlock()
	if text, literal := c.text.Literal(); !ok && literal {
		return digestOf(text), true
	}
	return d, ok
}
