package facts

import (
	"encoding/json"
	"fmt"

	"github.com/reactive-ccm/ccm/internal/tree"
)

// plain turns a gopsutil result into plain maps, lists and scalars under
// its JSON names, with integral numbers as int so `Facts.host.info.procs + 1`
// stays an integer.
func plain(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding %T: %w", v, err)
	}
	out, err := tree.DecodeJSON(b)
	if err != nil {
		return nil, fmt.Errorf("decoding %T: %w", v, err)
	}
	return out, nil
}
