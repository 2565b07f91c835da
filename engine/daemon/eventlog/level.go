package eventlog

import (
	"fmt"
	"log/slog"
)

// Level is the log level of ccm's --log-level name (set when given
// explicitly) and upstream's --debug and --info aliases: debug wins over
// info, and an alias wins over --log-level's default but not over a
// --log-level naming another level.
func Level(name string, set, debug, info bool) (slog.Level, error) {
	for _, alias := range []struct {
		name string
		on   bool
	}{{"debug", debug}, {"info", info}} {
		if !alias.on || name == alias.name {
			continue
		}
		if set {
			return 0, fmt.Errorf("--%s and --log-level %s name different levels", alias.name, name)
		}
		name = alias.name
		if alias.name == "debug" {
			break
		}
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(name)); err != nil {
		return 0, fmt.Errorf("--log-level %q: want debug, info, warn or error", name)
	}
	return level, nil
}
