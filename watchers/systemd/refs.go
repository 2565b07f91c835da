package systemd

import (
	"slices"

	sddbus "github.com/coreos/go-systemd/v22/dbus"
	godbus "github.com/godbus/dbus/v5"
)

// syncRefs references newly watched units and releases units nobody
// watches any more.
func (s *session) syncRefs() {
	wanted := map[string]bool{}
	for _, unit := range s.hub.watchedUnits() {
		wanted[unit] = true
		if _, ok := s.refs[unit]; !ok {
			s.ref(unit)
		}
	}
	for unit := range s.refs {
		if !wanted[unit] {
			s.unref(unit)
		}
	}
}

// ref routes the unit's signals to it and holds a reference on it, so
// systemd keeps it loaded: an unreferenced stopped unit is garbage
// collected, and every check loads it again (with a UnitNew signal). A
// unit that cannot be referenced is still watched.
func (s *session) ref(unit string) {
	path := unitPath(unit)
	var real godbus.ObjectPath
	if err := s.link.manager().CallWithContext(s.hub.ctx, managerIface+".LoadUnit", 0, unit).Store(&real); err == nil {
		path = real
	}
	s.refs[unit] = path
	s.paths[unitPath(unit)] = unit
	s.paths[path] = unit
	if s.holdsRef(path) {
		return
	}
	if err := s.link.bus.Object(busName, path).CallWithContext(s.hub.ctx, unitIface+".Ref", 0).Err; err != nil {
		s.hub.opts.Logger.Debug("systemd: cannot reference unit; it may be garbage-collected while stopped", "unit", unit, "error", err)
	}
}

// holdsRef reports whether this connection already references the unit:
// systemd keeps references across a re-execution, and counts them.
func (s *session) holdsRef(path godbus.ObjectPath) bool {
	v, err := s.link.bus.Object(busName, path).GetProperty(unitIface + ".Refs")
	if err != nil {
		return false
	}
	refs, _ := v.Value().([]string)
	names := s.link.bus.Names()
	return len(names) > 0 && slices.Contains(refs, names[0])
}

func (s *session) unref(unit string) {
	path := s.refs[unit]
	delete(s.refs, unit)
	delete(s.paths, path)
	delete(s.paths, unitPath(unit))
	if err := s.link.bus.Object(busName, path).CallWithContext(s.hub.ctx, unitIface+".Unref", 0).Err; err != nil {
		s.hub.opts.Logger.Debug("systemd: releasing unit reference", "unit", unit, "error", err)
	}
}

// unitPath is the object path systemd gives a unit name.
func unitPath(unit string) godbus.ObjectPath {
	return godbus.ObjectPath(unitPrefix + "/" + sddbus.PathBusEscape(unit))
}
