package sysctl

import (
	"bytes"
	"context"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/internal/textfile"
)

// dropInDir holds the drop-ins persist writes.
const dropInDir = "/etc/sysctl.d"

// dropIn is the drop-in persisting key: its name sorts after the
// numbered ones, so its value is the one applied at boot.
func dropIn(key string) string {
	return dropInDir + "/zz-ccm-" + strings.ReplaceAll(key, "/", ".") + ".conf"
}

// dropInContent is what the drop-in holds.
func (s *sysctl) dropInContent() []byte {
	return []byte("# Managed by ccm (sysctl#" + s.key + ")\n" + s.key + " = " + s.value + "\n")
}

// persisted compares the drop-in with what it should hold; nil when it
// does.
func (s *sysctl) persisted() (*resources.Difference, error) {
	f, err := textfile.Read(safepath.Policy{}, s.persist)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if f.Exists && bytes.Equal(f.Content, s.dropInContent()) {
		return nil, nil
	}
	d := resources.Differs("persist", "absent", s.persist)
	if f.Exists {
		d.Observed, d.Note = "other content", persistedValue(f.Content, s.key)
	}
	return &d, nil
}

// persistedValue says what value a drop-in sets for key, for the note of
// a difference.
func persistedValue(content []byte, key string) string {
	for _, l := range textfile.Lines(content) {
		k, v, ok := strings.Cut(l, "=")
		if ok && strings.TrimSpace(k) == key {
			return "it sets " + normalize(v)
		}
	}
	return "it does not set " + key
}

// writeDropIn writes the drop-in, root's and mode 0644 when new.
func (s *sysctl) writeDropIn(ctx context.Context) error {
	defer textfile.Lock(s.persist)()
	f, err := textfile.Read(safepath.Policy{}, s.persist)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Replace(ctx, s.dropInContent(), &textfile.Attrs{Mode: 0o644})
}
