package scaffold

import (
	"maps"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestEnginesRenderTemplatesPartialsAndWrites(t *testing.T) {
	for _, tc := range []struct {
		desc, props string
		templates   map[string]string
		want        map[string]string
	}{
		{
			desc: "jet by default",
			templates: map[string]string{
				"app.conf":          "name = [[ data.name ]]\nhost = [[ facts.host ]]\nold = [[ Data.name ]]\n",
				"conf.d/hdr.conf":   "[[ render(\"_partials/hdr.txt\", .) ]]",
				"_partials/hdr.txt": "# [[ data.name ]] on [[ facts.host ]]",
				"gen.conf":          "[[ write(\"extra.conf\", \"port=\" + data.port) ]]generated",
				"braces.json":       `{"keep": "{{ not jet }}"}`,
			},
			want: map[string]string{
				"app.conf":        "name = shop\nhost = web01\nold = shop\n",
				"conf.d/hdr.conf": "# shop on web01",
				"gen.conf":        "generated",
				"extra.conf":      "port=8080",
				"braces.json":     `{"keep": "{{ not jet }}"}`,
			},
		},
		{
			desc:  "go with sprig",
			props: "engine: go",
			templates: map[string]string{
				"app.conf":          "name = {{ .data.name | upper }}\nhost = {{ .Facts.host }}\n",
				"hdr.conf":          `{{ render "_partials/hdr.txt" . }}`,
				"_partials/hdr.txt": "# {{ .data.name }}",
				"gen.conf":          `{{ write "extra.conf" "written" }}generated`,
			},
			want: map[string]string{
				"app.conf":   "name = SHOP\nhost = web01\n",
				"hdr.conf":   "# shop",
				"gen.conf":   "generated",
				"extra.conf": "written",
			},
		},
		{
			desc:      "go with custom delimiters",
			props:     "engine: go\nleft_delimiter: '<<'\nright_delimiter: '>>'",
			templates: map[string]string{"unit.tmpl": "name=<< .data.name >> literal={{ .x }}"},
			want:      map[string]string{"unit.tmpl": "name=shop literal={{ .x }}"},
		},
		{
			desc:      "jet with custom delimiters",
			props:     "left_delimiter: '<%'\nright_delimiter: '%>'",
			templates: map[string]string{"a.txt": "name=<% data.name %> literal=[[ x ]]"},
			want:      map[string]string{"a.txt": "name=shop literal=[[ x ]]"},
		},
		{
			desc:      "data property replaces data",
			props:     "data:\n  name: override",
			templates: map[string]string{"a.txt": "[[ data.name ]] [[ facts.host ]]"},
			want:      map[string]string{"a.txt": "override web01"},
		},
		{
			desc:      "skip_empty drops blank output",
			props:     "skip_empty: true",
			templates: map[string]string{"a.txt": "a", "blank.txt": "[[ if false ]]x[[ end ]]\n  \n"},
			want:      map[string]string{"a.txt": "a"},
		},
		{
			desc:      "without skip_empty blank output is a file",
			templates: map[string]string{"a.txt": "a", "blank.txt": "[[ if false ]]x[[ end ]]"},
			want:      map[string]string{"a.txt": "a", "blank.txt": ""},
		},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			l := newLayout(t, tc.templates)
			s := l.build(t, tc.props)
			out := resourcetest.Converge(t.Context(), t, s, false, false)
			if !out.Change.Changed || !out.After.Desired {
				t.Fatalf("converge: %+v", out)
			}
			if got := readTree(t, l.target); !maps.Equal(got, tc.want) {
				t.Errorf("rendered\n%v\nwant\n%v", got, tc.want)
			}
			if again := resourcetest.Converge(t.Context(), t, s, false, false); again.Applied {
				t.Errorf("a rendered scaffold converged again: %+v", again)
			}
		})
	}
}
