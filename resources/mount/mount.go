package mount

import (
	"context"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/watchers/mountinfo"
)

// providers are the ways of mounting: util-linux's mount and umount.
var providers = []resources.Provider{{Name: "mount", Priority: 1, Usable: resources.NeedsCommands("mount", "umount")}}

func init() {
	resources.Register(resources.Type{Name: "mount", New: New, Props: props{}, Inspect: inspect,
		Help: "Keep a filesystem mounted or unmounted at a mount point, and optionally its /etc/fstab line", NameHelp: "the mount point, an absolute path"})
}

// mount is one managed mount point.
type mount struct {
	point   string
	ensure  string
	device  string
	fstype  string
	options []string
	persist bool
	runner  command.Runner
}

var _ resources.Resource = (*mount)(nil)

// New builds a mount resource from its manifest properties.
func New(spec *resources.Spec) (resources.Instance, error) {
	p, errs := resources.DecodeProps[props](spec)
	ensure := validate(spec, p, errs)
	if err := errs.Err(); err != nil {
		return resources.Instance{}, err
	}
	m := &mount{point: spec.Name, ensure: ensure, device: p.Device, fstype: p.FSType, options: p.Options,
		persist: p.Persist, runner: command.Host}
	inst := resources.Instance{Resource: resources.IfUsable(m, "", providers), Provider: providers[0].Name, Ensure: ensure, Uses: []string{m.point}}
	if ensure == Mounted {
		inst.Owns = []string{m.point}
	}
	if m.persist {
		inst.Claims = []resources.Claim{{Path: fstab, What: "the line for " + m.point}}
	}
	return inst, nil
}

// Watch asks the mount table hub for the mount point and, with persist,
// inotify for /etc/fstab.
func (m *mount) Watch() resources.WatchSpec {
	spec := resources.WatchSpec{Mounts: []string{m.point}}
	if m.persist {
		spec.Paths = []string{fstab}
	}
	return spec
}

// view is one look at the mount point and fstab.
type view struct {
	top *mountinfo.Entry
	// wrong is set when the mount on top is not the wanted one.
	wrong bool
	// roDiffers is set when the wanted mount is there, read-only where
	// read-write is wanted or the other way round.
	roDiffers bool
	line      lineEdit
}

// observed is the ensure a view shows.
func (v *view) observed() string {
	if v.top == nil {
		return Unmounted
	}
	return Mounted
}

// look reads the mount table and fstab and compares them.
func (m *mount) look(ctx context.Context) (*view, error) {
	top, err := mounted(m.point)
	if err != nil {
		return nil, err
	}
	v := &view{top: top}
	if top != nil && m.ensure == Mounted {
		if v.wrong, err = m.other(ctx, top); err != nil {
			return nil, err
		}
		v.roDiffers = !v.wrong && readOnly(top.Options) != m.readOnly()
	}
	if m.persist {
		if v.line, err = m.fstabEdit(); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// other reports whether the mount e is not the wanted one.
func (m *mount) other(ctx context.Context, e *mountinfo.Entry) (bool, error) {
	if e.FSType != m.fstype {
		return true, nil
	}
	dev, err := deviceNumber(ctx, m.runner, m.device)
	if err != nil {
		return false, err
	}
	if dev != "" {
		return dev != e.Device, nil
	}
	return e.Source != m.device, nil
}

func (m *mount) readOnly() bool {
	for _, o := range m.options {
		if o == "ro" {
			return true
		}
	}
	return false
}

// Check reports what is mounted at the point and, with persist, whether
// fstab holds the wanted line.
func (m *mount) Check(ctx context.Context) (resources.Status, error) {
	v, err := m.look(ctx)
	if err != nil {
		return resources.Status{}, err
	}
	st := resources.Status{Ensure: v.observed(), Differences: m.differences(v)}
	st.Desired = len(st.Differences) == 0
	return st, nil
}

// differences lists what differs in v, observed → desired.
func (m *mount) differences(v *view) []resources.Difference {
	var out []resources.Difference
	wantMounted := m.ensure == Mounted
	switch {
	case wantMounted && v.top == nil, !wantMounted && v.top != nil:
		out = append(out, resources.Differs("ensure", v.observed(), m.ensure))
	case v.wrong:
		out = append(out, resources.Differs("device", v.top.FSType+" "+v.top.Source, m.fstype+" "+m.device))
	case v.roDiffers:
		out = append(out, resources.Differs("options", rw(readOnly(v.top.Options)), rw(m.readOnly())))
	}
	if v.line.kind != "" {
		out = append(out, v.line.difference())
	}
	return out
}

func rw(readOnly bool) string {
	if readOnly {
		return "ro"
	}
	return "rw"
}

// mountArgs are mount's arguments for the wanted mount.
func (m *mount) mountArgs() []string {
	args := []string{"-t", m.fstype}
	if len(m.options) > 0 {
		args = append(args, "-o", strings.Join(m.options, ","))
	}
	return append(args, m.device, m.point)
}
