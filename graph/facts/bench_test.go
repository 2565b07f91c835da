package facts

import "testing"

// BenchmarkGather gathers every system fact once (upstream CCM: ~0.27 s
// for `ccm facts`).
func BenchmarkGather(b *testing.B) {
	for b.Loop() {
		if _, _, err := Gather(b.Context(), Options{Dirs: []string{}}); err != nil {
			b.Fatal(err)
		}
	}
}
