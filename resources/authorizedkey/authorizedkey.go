package authorizedkey

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/internal/textfile"
)

// providers are the ways of managing keys; posix is the only one.
var providers = []resources.Provider{{Name: "posix", Priority: 1, Usable: resources.Always}}

func init() {
	resources.Register(resources.Type{Name: "authorized_key", New: New, Props: props{}, Inspect: inspect,
		Help:     "Keep an SSH public key in (or out of) a user's ~/.ssh/authorized_keys, other lines left alone",
		NameHelp: "a name for the key, its default comment"})
}

// key is one managed key of one user.
type key struct {
	user   string
	want   entry
	absent bool
}

var _ resources.Resource = (*key)(nil)

// New builds an authorized_key resource from its manifest properties.
func New(spec *resources.Spec) (resources.Instance, error) {
	p, errs := resources.DecodeProps[props](spec)
	want := validate(spec, p, errs)
	if err := errs.Err(); err != nil {
		return resources.Instance{}, err
	}
	for _, o := range p.Options {
		spec.Secrets.Add(o)
	}
	k := &key{user: p.User, want: want, absent: p.Ensure == Absent}
	return resources.Instance{Resource: k, Provider: providers[0].Name, Ensure: cmp.Or(p.Ensure, Present)}, nil
}

// Watch asks for events on the user's authorized_keys and on ~/.ssh
// itself (its owner and mode), where the user database says the home is
// when watching starts (/home/USER for a user not created yet), and on
// the user database, whose change may move the home.
func (k *key) Watch() resources.WatchSpec {
	home := "/home/" + k.user
	if a, err := lookup(k.user); err == nil {
		home = a.home
	}
	return resources.WatchSpec{Paths: []string{home + "/.ssh", keysFile(home), "/etc/passwd"}}
}

// view is one look at the user's keys.
type view struct {
	acct *account
	file *textfile.File
	// dir is what ~/.ssh needs; nil when it is in order.
	dir *dirDrift
	out []string
	c   change
}

func (v *view) close() error {
	if v == nil || v.file == nil {
		return nil
	}
	return v.file.Close()
}

// look reads the user's account and keys with read.
func (k *key) look(read func(path string) (*textfile.File, error)) (*view, error) {
	acct, err := lookup(k.user)
	if errors.Is(err, ErrNoUser) {
		return &view{}, nil
	}
	if err != nil {
		return nil, err
	}
	v := &view{acct: acct}
	if !k.absent {
		if v.dir, err = acct.sshDir(); err != nil {
			return nil, err
		}
	}
	if v.file, err = read(keysFile(acct.home)); err != nil {
		return nil, err
	}
	if v.file.Exists || !k.absent {
		v.out, v.c = edit(textfile.Lines(v.file.Content), k.want, k.absent)
	}
	return v, nil
}

// Check reports whether the key is present, what differs when it is not
// as wanted, and what ~/.ssh lacks. It changes nothing.
func (k *key) Check(context.Context) (resources.Status, error) {
	v, err := k.look(func(path string) (*textfile.File, error) { return textfile.Read(safepath.Policy{}, path) })
	if err != nil {
		return resources.Status{}, err
	}
	defer v.close()
	return k.status(v), nil
}

// status is what a check reports of a view.
func (k *key) status(v *view) resources.Status {
	if v.acct == nil {
		st := resources.Status{Ensure: Absent, Desired: k.absent}
		if !k.absent {
			st.Differences = []resources.Difference{resources.Differs("user", Absent, k.user)}
		}
		return st
	}
	found := Present
	if v.c.kind == textfile.Added || v.c.kind == "" && k.absent {
		found = Absent
	}
	st := resources.Status{Ensure: found}
	if v.dir != nil {
		st.Differences = append(st.Differences, v.dir.differences()...)
	}
	if v.c.kind != "" {
		st.Differences = append(st.Differences, k.difference(v.c))
	}
	st.Desired = len(st.Differences) == 0
	return st
}

// Apply brings ~/.ssh in order and edits authorized_keys, reading it again
// under this process's lock on it, once no program has it open for
// writing.
func (k *key) Apply(ctx context.Context, req resources.Request) (_ resources.Change, err error) {
	acct, err := lookup(k.user)
	if errors.Is(err, ErrNoUser) && k.absent {
		return resources.Change{}, nil
	}
	if err != nil {
		return resources.Change{}, err
	}
	defer textfile.Lock(keysFile(acct.home))()
	settled := func(path string) (*textfile.File, error) { return textfile.ReadSettled(ctx, safepath.Policy{}, path) }
	v, err := k.look(settled)
	if err != nil {
		return resources.Change{}, err
	}
	defer func() { err = errors.Join(err, v.close()) }()
	if v.dir == nil && v.c.kind == "" {
		return resources.Change{}, nil
	}
	if req.Noop {
		return resources.Change{Changed: true, NoopMessage: k.noopMessage(v)}, nil
	}
	if v.dir != nil {
		if err := v.acct.fixSSHDir(v.dir); err != nil {
			return resources.Change{}, err
		}
		// A new directory is where the file is created: look again.
		if err := v.close(); err != nil {
			return resources.Change{}, err
		}
		if v, err = k.look(settled); err != nil {
			return resources.Change{}, err
		}
	}
	if v.c.kind == "" {
		return resources.Change{Changed: true}, nil
	}
	create := &textfile.Attrs{UID: acct.uid, GID: acct.gid, Mode: 0o600}
	if err := v.file.Replace(ctx, textfile.Join(v.out), create); err != nil {
		return resources.Change{}, fmt.Errorf("writing %s: %w", keysFile(acct.home), err)
	}
	return resources.Change{Changed: true}, nil
}
