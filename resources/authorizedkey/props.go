package authorizedkey

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"regexp"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
)

// Ensure values of the authorized_key resource.
const (
	Present = "present"
	Absent  = "absent"
)

// props are the authorized_key resource's manifest properties.
type props struct {
	Ensure  string   `yaml:"ensure" help:"present (the default) or absent" enum:"present,absent" cli:"arg=1,default=present"`
	User    string   `yaml:"user" help:"the user whose ~/.ssh/authorized_keys holds the key"`
	Type    string   `yaml:"type" help:"the key's type: ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256, sk-ssh-ed25519@openssh.com, ..."`
	Key     string   `yaml:"key" help:"the public key: the base64 word of a .pub file, after the type"`
	Comment string   `yaml:"comment" help:"the comment after the key (default: the resource's name)"`
	Options []string `yaml:"options" help:"sshd options written before the key: no-pty, from=\"10.0.0.0/8\", command=\"/usr/bin/backup\""`
}

// validUser is a user name as useradd accepts it.
var validUser = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*\$?$`)

// validate reports every problem with the properties and returns the
// wanted entry.
func validate(spec *resources.Spec, p *props, errs *resources.ErrorList) entry {
	spec.CheckOneOf(errs, "ensure", p.Ensure, Present, Absent)
	switch {
	case !spec.Has("user"):
		errs.Addf(spec.Pos, "%s: user is required", spec.ID())
	case !validUser.MatchString(p.User):
		errs.Addf(spec.KeyPos("user"), "user: %q is not a user name", p.User)
	}
	validateKey(spec, p, errs)
	e := entry{options: strings.Join(p.Options, ","), typ: p.Type, key: p.Key, comment: spec.Name}
	if spec.Has("comment") {
		e.comment = p.Comment
	}
	if strings.ContainsAny(e.comment, "\n\r") {
		errs.Addf(spec.KeyPos("comment"), "comment: must be one line")
	}
	for i, o := range p.Options {
		if opts, rest := splitOptions(o); o == "" || rest != "" || opts != o || strings.ContainsAny(o, "\n\r") || strings.Count(o, `"`)%2 != 0 {
			errs.Addf(spec.KeyPos("options"), "options: item %d, %q, is not one option (quote values holding spaces: command=\"a b\")", i+1, o)
		}
	}
	return e
}

func validateKey(spec *resources.Spec, p *props, errs *resources.ErrorList) {
	switch {
	case !spec.Has("type"):
		errs.Addf(spec.Pos, "%s: type is required (ssh-ed25519, ssh-rsa, ...)", spec.ID())
	case !isKeyType(p.Type):
		errs.Addf(spec.KeyPos("type"), "type: %q is not a key type sshd accepts", p.Type)
	}
	if !spec.Has("key") {
		errs.Addf(spec.Pos, "%s: key is required", spec.ID())
		return
	}
	blob, err := base64.StdEncoding.DecodeString(p.Key)
	switch {
	case err != nil:
		errs.Addf(spec.KeyPos("key"), "key: not base64 (give the word after the type in the .pub file): %v", err)
	case isKeyType(p.Type) && blobType(blob) != p.Type:
		errs.Addf(spec.KeyPos("key"), "key: holds a %q key, not %q", blobType(blob), p.Type)
	}
}

// blobType reads the key type a public key blob starts with, as the SSH
// wire format writes it (a length, then the name).
func blobType(blob []byte) string {
	if len(blob) < 4 {
		return ""
	}
	n := binary.BigEndian.Uint32(blob)
	if uint64(n) > uint64(len(blob)-4) || bytes.ContainsAny(blob[4:4+n], "\x00") {
		return ""
	}
	return string(blob[4 : 4+n])
}
