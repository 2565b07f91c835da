package eventlog_test

import (
	"log/slog"
	"testing"

	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
)

// TestLevel is the decision table of --log-level and upstream's --debug
// and --info.
func TestLevel(t *testing.T) {
	for _, c := range []struct {
		name             string
		set, debug, info bool
		want             slog.Level
		err              string
	}{
		{name: "info", want: slog.LevelInfo},
		{name: "warn", set: true, want: slog.LevelWarn},
		{name: "error", set: true, want: slog.LevelError},
		{name: "info", debug: true, want: slog.LevelDebug},
		{name: "info", info: true, want: slog.LevelInfo},
		{name: "info", debug: true, info: true, want: slog.LevelDebug},
		{name: "debug", set: true, debug: true, want: slog.LevelDebug},
		{name: "info", set: true, info: true, want: slog.LevelInfo},
		{name: "warn", set: true, debug: true, err: "--debug and --log-level warn name different levels"},
		{name: "warn", set: true, info: true, err: "--info and --log-level warn name different levels"},
		{name: "debug", set: true, debug: true, info: true, err: "--info and --log-level debug name different levels"},
		{name: "loud", set: true, err: `--log-level "loud": want debug, info, warn or error`},
	} {
		got, err := eventlog.Level(c.name, c.set, c.debug, c.info)
		if msg := errString(err); msg != c.err || (err == nil && got != c.want) {
			t.Errorf("%+v: %v %q", c, got, msg)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
