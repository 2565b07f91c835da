package scaffold

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/resources/template"
)

func TestTemplatesLendTheirFunctionsToBothEngines(t *testing.T) {
	for _, c := range []struct{ engine, body string }{
		{"jet", `[[ lookup("data.name") ]] [[ lookup("data.missing", "dflt") ]]`},
		{"go", `{{ lookup "data.name" }} {{ lookup "data.missing" "dflt" }}`},
	} {
		t.Run(c.engine, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "templates"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "templates", "app.conf"), []byte(c.body), 0o644); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(dir, "out")
			tmpl := template.New(template.Env{Data: map[string]any{"name": "web"}, Dir: dir})
			inst, err := resourcetest.BuildWith(t, "scaffold", target, "source: templates\nengine: "+c.engine+"\n", dir, tmpl)
			if err != nil {
				t.Fatal(err)
			}
			resourcetest.Converge(t.Context(), t, inst.Resource, false, false)
			b, err := os.ReadFile(filepath.Join(target, "app.conf"))
			if err != nil || string(b) != "web dflt" {
				t.Fatalf("rendered %q (%v), want %q", b, err, "web dflt")
			}
		})
	}
}
