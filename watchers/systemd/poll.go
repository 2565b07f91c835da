package systemd

import (
	"context"
	"time"
)

// poller notices unit state changes by asking, for connections that
// cannot carry signals and for Options.Poll.
type poller struct {
	last map[string]string // unit -> load/active/sub state seen last
}

func newPoller() *poller { return &poller{last: map[string]string{}} }

// poll reads every watched unit's state in one call and notifies the
// units whose state changed since the last poll, and those it reads for
// the first time: a unit may have changed between its Watch and this
// read, which would otherwise become the state later changes are told
// from, and the change would never be told. Enable/disable changes
// are left to the engine's periodic full check: they show in no state
// that ListUnitsByNames returns.
func (p *poller) poll(s *session) {
	units := s.hub.watchedUnits()
	if len(units) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(s.hub.ctx, 30*time.Second)
	defer cancel()
	statuses, err := s.link.sd.ListUnitsByNamesContext(ctx, units)
	if err != nil {
		s.hub.opts.Logger.Debug("systemd: polling unit states", "error", err)
		return
	}
	seen := make(map[string]string, len(statuses))
	for _, st := range statuses {
		state := st.LoadState + "/" + st.ActiveState + "/" + st.SubState
		seen[st.Name] = state
		if old, ok := p.last[st.Name]; !ok || old != state {
			s.hub.notifyUnit(st.Name)
		}
	}
	p.last = seen
}
