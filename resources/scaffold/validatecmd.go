package scaffold

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/reactive-ccm/ccm/resources"
	validatecmd "github.com/reactive-ccm/ccm/resources/internal/validate"
	"go.yaml.in/yaml/v3"
)

// validateRule checks every rendered file whose base name matches glob
// before the scaffold installs anything.
type validateRule struct {
	glob string
	cmd  validatecmd.Command
}

// validateRules keeps the manifest's order.
type validateRules []validateRule

// UnmarshalYAML reads `- "GLOB": "COMMAND"` entries, each command naming
// the new file as %s.
func (v *validateRules) UnmarshalYAML(n *yaml.Node) error {
	return globPairs(n, func(glob string, c *yaml.Node) error {
		cmd, err := validatecmd.Parse(c.Value)
		if err != nil {
			return at(c, "command %q: %v", c.Value, err)
		}
		*v = append(*v, validateRule{glob: glob, cmd: cmd})
		return nil
	})
}

// PropertyKind says validate is a list of GLOB: COMMAND pairs.
func (validateRules) PropertyKind() resources.Kind { return resources.KindPairs }

// runValidate runs every matching rule on each file about to be
// installed, on its rendered copy, so a refusal leaves the whole target as
// it was. rel names the file in errors: its path is a temporary one.
func (s *scaffold) runValidate(ctx context.Context, r *rendering, rels []string) error {
	for _, rel := range rels {
		for _, v := range s.p.Validate {
			if !matchesGlob(v.glob, rel) {
				continue
			}
			if err := validateFile(ctx, v.cmd, r.path(rel)); err != nil {
				return fmt.Errorf("%s: %w", filepath.Join(s.target, rel), err)
			}
		}
	}
	return nil
}

// validateFile runs cmd on the rendered file at path, in the private
// rendering directory.
func validateFile(ctx context.Context, cmd validatecmd.Command, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return cmd.Run(ctx, f)
}
