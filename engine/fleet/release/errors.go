package release

import (
	"errors"
	"fmt"
)

// ErrRefused marks a change an operator asked for that release will not
// make as asked (no such revision, a key needed, a narrower wave, a
// bundle hosts would refuse, a bundle or key file it cannot read, flags
// that do not go together): the request is wrong, not the store. The
// error says what to do instead.
var ErrRefused = errors.New("release: refused")

// refusal is an ErrRefused whose message is the whole explanation.
type refusal struct{ msg string }

func (r *refusal) Error() string        { return r.msg }
func (r *refusal) Is(target error) bool { return target == ErrRefused }

func refuse(format string, args ...any) error {
	return &refusal{msg: fmt.Sprintf(format, args...)}
}

// refused is err marked ErrRefused, keeping its message and chain.
type refused struct{ err error }

func (r refused) Error() string        { return r.err.Error() }
func (r refused) Unwrap() error        { return r.err }
func (r refused) Is(target error) bool { return target == ErrRefused }
