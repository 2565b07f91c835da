package mount

import (
	"context"
	"fmt"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/internal/textfile"
)

// maxUnmounts bounds the mounts Apply takes off a point to reach the
// wanted one underneath or none.
const maxUnmounts = 8

// Apply writes fstab first (so a mount made by hand from it agrees), then
// mounts, remounts or unmounts until the point holds the wanted mount.
func (m *mount) Apply(ctx context.Context, req resources.Request) (resources.Change, error) {
	v, err := m.look(ctx)
	if err != nil {
		return resources.Change{}, err
	}
	if len(m.differences(v)) == 0 {
		return resources.Change{}, nil
	}
	if req.Noop {
		return resources.Change{Changed: true, NoopMessage: m.noopMessage(v)}, nil
	}
	if v.line.kind != "" {
		if err := m.writeFstab(ctx); err != nil {
			return resources.Change{}, err
		}
	}
	if err := m.converge(ctx, v); err != nil {
		return resources.Change{}, err
	}
	return resources.Change{Changed: true}, nil
}

// converge takes wrong mounts off the point, then mounts or remounts.
func (m *mount) converge(ctx context.Context, v *view) error {
	for range maxUnmounts {
		switch {
		case m.ensure != Mounted && v.top == nil:
			return nil
		case m.ensure != Mounted || v.wrong:
			if err := m.run(ctx, "umount", m.point); err != nil {
				return err
			}
		case v.top == nil:
			return m.mount(ctx)
		case v.roDiffers:
			return m.run(ctx, "mount", "-o", "remount,"+rw(m.readOnly()), m.point)
		default:
			return nil
		}
		var err error
		if v, err = m.look(ctx); err != nil {
			return err
		}
	}
	return fmt.Errorf("%s %w after %d unmounts", m.point, ErrStillMounted, maxUnmounts)
}

// mount creates a missing mount point (0755, through safepath) and
// mounts.
func (m *mount) mount(ctx context.Context) error {
	dir, err := safepath.Policy{}.MkdirAll(m.point, 0o755)
	if err != nil {
		return fmt.Errorf("creating the mount point: %w", err)
	}
	if err := dir.Close(); err != nil {
		return err
	}
	return m.run(ctx, "mount", m.mountArgs()...)
}

// run runs mount or umount; a non-zero exit is an error with its output.
func (m *mount) run(ctx context.Context, name string, args ...string) error {
	return command.RunOK(ctx, m.runner, command.Cmd{Name: name, Args: args, Timeout: toolTimeout})
}

// noopMessage says what an apply would have done.
func (m *mount) noopMessage(v *view) string {
	var what []string
	switch v.line.kind {
	case textfile.Added:
		what = append(what, "added the line for "+m.point+" to "+fstab)
	case textfile.Replaced:
		what = append(what, fmt.Sprintf("replaced line %d of %s", v.line.at, fstab))
	case textfile.Removed:
		what = append(what, "removed the line for "+m.point+" from "+fstab)
	}
	switch {
	case m.ensure != Mounted && v.top != nil:
		what = append(what, "unmounted "+m.point)
	case v.top == nil && m.ensure == Mounted:
		what = append(what, "mounted "+m.device+" on "+m.point)
	case v.wrong:
		what = append(what, "unmounted "+v.top.Source+" from "+m.point+" and mounted "+m.device)
	case v.roDiffers:
		what = append(what, "remounted "+m.point+" "+rw(m.readOnly()))
	}
	return "Would have " + strings.Join(what, "; ")
}
