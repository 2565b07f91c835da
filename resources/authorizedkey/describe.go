package authorizedkey

import (
	"fmt"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/textfile"
)

// difference describes an edit of authorized_keys, observed → desired.
func (k *key) difference(c change) resources.Difference {
	switch c.kind {
	case textfile.Added:
		return resources.Differs("key", Absent, Present)
	case textfile.Removed:
		d := resources.Differs("key", Present, Absent)
		if c.n > 1 {
			d.Note = fmt.Sprintf("%d lines", c.n)
		}
		return d
	}
	d := resources.Difference{Property: "key", Observed: c.old.short(), Desired: k.want.short(), Note: fmt.Sprintf("line %d", c.at), Content: true}
	if c.n > 1 {
		d.Note += fmt.Sprintf(", and %d more lines holding the key to remove", c.n-1)
	}
	return d
}

// noopMessage says what an apply would have done.
func (k *key) noopMessage(v *view) string {
	path := keysFile(v.acct.home)
	var msg string
	switch v.c.kind {
	case textfile.Added:
		msg = "Would have added the key to " + path
	case textfile.Removed:
		msg = "Would have removed the key from " + path
	case textfile.Replaced:
		msg = fmt.Sprintf("Would have replaced line %d of %s", v.c.at, path)
	}
	if v.dir == nil {
		return msg
	}
	fix := "Would have created " + v.acct.home + "/.ssh"
	if !v.dir.missing {
		fix = "Would have fixed the owner and mode of " + v.acct.home + "/.ssh"
	}
	if msg == "" {
		return fix
	}
	return fix + "; " + msg[len("Would have "):]
}
