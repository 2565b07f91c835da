package scaffold

import (
	"fmt"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// tenFiles is a typical configuration scaffold: ten small templates.
func tenFiles() map[string]string {
	t := map[string]string{}
	for i := range 10 {
		t[fmt.Sprintf("conf.d/f%d.conf", i)] = fmt.Sprintf("file = %d\nname = [[ data.name ]]\nhost = [[ facts.host ]]\n", i)
	}
	return t
}

// BenchmarkCheckConverged measures the check run on every event in the
// target or source tree of a converged ten-file scaffold: render into a
// private directory, then compare.
func BenchmarkCheckConverged(b *testing.B) {
	for _, engine := range []string{"jet", "go"} {
		b.Run(engine, func(b *testing.B) {
			templates := tenFiles()
			if engine == "go" {
				for k := range templates {
					templates[k] = "name = {{ .data.name }}\nhost = {{ .facts.host }}\n" + k
				}
			}
			l := newLayout(b, templates)
			s := l.build(b, "engine: "+engine)
			resourcetest.Converge(b.Context(), b, s, false, false)
			for b.Loop() {
				if st, err := s.Check(b.Context()); err != nil || !st.Desired {
					b.Fatalf("%+v %v", st, err)
				}
			}
		})
	}
}
