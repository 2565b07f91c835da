package authorizedkey

import (
	"context"
	"crypto/sha256"
	"encoding/base64"

	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/internal/textfile"
)

// metadata is what `ccm status authorized_key USER` shows: the keys in
// the user's authorized_keys.
type metadata struct {
	User     string  `json:"user" yaml:"user"`
	Path     string  `json:"path" yaml:"path"`
	Ensure   string  `json:"ensure" yaml:"ensure"`
	Keys     []shown `json:"keys,omitempty" yaml:"keys,omitempty"`
	Provider string  `json:"provider" yaml:"provider"`
}

// shown is one key as status shows it.
type shown struct {
	Type        string `json:"type" yaml:"type"`
	Fingerprint string `json:"fingerprint" yaml:"fingerprint"`
	Comment     string `json:"comment,omitempty" yaml:"comment,omitempty"`
	Options     string `json:"options,omitempty" yaml:"options,omitempty"`
}

// inspect lists the keys of user name.
func inspect(_ context.Context, name string) (any, error) {
	acct, err := lookup(name)
	if err != nil {
		return nil, err
	}
	md := metadata{User: name, Path: keysFile(acct.home), Ensure: Absent, Provider: providers[0].Name}
	f, err := textfile.Read(safepath.Policy{}, md.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if !f.Exists {
		return md, nil
	}
	md.Ensure = Present
	for _, l := range textfile.Lines(f.Content) {
		if e, ok := parse(l); ok {
			md.Keys = append(md.Keys, shown{Type: e.typ, Fingerprint: fingerprint(e.key), Comment: e.comment, Options: e.options})
		}
	}
	return md, nil
}

// fingerprint is the key's fingerprint as ssh-keygen -l shows it.
func fingerprint(key string) string {
	blob, err := base64.StdEncoding.DecodeString(key)
	if err != nil {
		return "invalid base64"
	}
	sum := sha256.Sum256(blob)
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}
