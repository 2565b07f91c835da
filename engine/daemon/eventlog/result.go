package eventlog

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/engine"
)

// WriteResult writes upstream CCM's result line for one resource:
//
//	WARN  package#zsh changed ensure=present runtime=1.204s provider=apt
//
// the level says how it went (ERROR failed, WARN changed, refreshed or
// skipped, INFO stable), a noop adds noop=MESSAGE, a failure errors=....
func WriteResult(w io.Writer, ev *engine.Event) {
	name := ev.Name
	if ev.Alias != "" {
		name = ev.Alias + " (alias)"
	}
	level, verb := resultVerb(ev)
	line := fmt.Sprintf("%-5s %s#%s %s ensure=%s runtime=%v provider=%s",
		level, ev.Type, name, verb, ev.RequestedEnsure, ev.Duration.Truncate(time.Millisecond), ev.Provider)
	if ev.Noop && ev.NoopMessage != "" {
		line += fmt.Sprintf(" noop=%q", ev.NoopMessage)
	}
	if len(ev.UnmetRequirements) > 0 {
		line += " unmet=" + strings.Join(ev.UnmetRequirements, ",")
	}
	if len(ev.Error) > 0 {
		line += fmt.Sprintf(" errors=%q", strings.Join(ev.Error, ", "))
	}
	fmt.Fprintln(w, line)
}

func resultVerb(ev *engine.Event) (level, verb string) {
	switch {
	case ev.Failed:
		return "ERROR", "failed"
	case ev.Skipped && len(ev.UnmetRequirements) > 0:
		return "WARN", "skipped due to unmet requirement"
	case ev.Skipped:
		return "WARN", "skipped"
	case ev.Refreshed:
		return "WARN", "refreshed"
	case ev.Changed:
		return "WARN", "changed"
	}
	return "INFO", "stable"
}
