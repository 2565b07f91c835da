package scaffold

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/command"
	"go.yaml.in/yaml/v3"
)

// postRule runs a command on every rendered file whose base name matches
// glob. {} in an argument stands for the file's path; without {}, the
// path is the last argument.
type postRule struct {
	glob string
	argv []string
	raw  string
}

// postRules keeps the manifest's order, across list items and within one
// map, so post commands run in the order they are written.
type postRules []postRule

// UnmarshalYAML reads `- "GLOB": "COMMAND"` entries strictly: no empty
// globs or commands, valid glob syntax, balanced quotes.
func (p *postRules) UnmarshalYAML(n *yaml.Node) error {
	return globPairs(n, func(glob string, v *yaml.Node) error {
		prog, args, err := command.Split(v.Value)
		if err != nil {
			return at(v, "command %q: %v", v.Value, err)
		}
		*p = append(*p, postRule{glob: glob, argv: append([]string{prog}, args...), raw: v.Value})
		return nil
	})
}

// globPairs walks `- "GLOB": "COMMAND"` entries in order, refusing empty
// or malformed globs and empty commands, and hands each to add.
func globPairs(n *yaml.Node, add func(glob string, cmd *yaml.Node) error) error {
	if n.Kind != yaml.SequenceNode {
		return at(n, "expected a list of `- \"GLOB\": \"COMMAND\"` entries")
	}
	for _, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			return at(item, "expected a map of glob to command")
		}
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, v := item.Content[i], item.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.Value == "" {
				return at(k, "the glob cannot be empty")
			}
			if _, err := filepath.Match(k.Value, ""); err != nil {
				return at(k, "bad glob %q: %v", k.Value, err)
			}
			if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" {
				return at(v, "the command for %q cannot be empty", k.Value)
			}
			if err := add(k.Value, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// matchesGlob reports whether the base name of path matches glob, which
// was checked when decoded.
func matchesGlob(glob, path string) bool {
	ok, _ := filepath.Match(glob, filepath.Base(path))
	return ok
}

func at(n *yaml.Node, format string, args ...any) error {
	return &resources.PosError{Pos: resources.Pos{Line: n.Line, Col: n.Column}, Msg: fmt.Sprintf(format, args...)}
}

// matches reports whether the rule applies to the file at path.
func (r postRule) matches(path string) bool { return matchesGlob(r.glob, path) }

// args returns the command's arguments for the file at path.
func (r postRule) args(path string) []string {
	args := make([]string, 0, len(r.argv))
	placed := false
	for _, a := range r.argv[1:] {
		if strings.Contains(a, "{}") {
			a = strings.ReplaceAll(a, "{}", path)
			placed = true
		}
		args = append(args, a)
	}
	if !placed {
		args = append(args, path)
	}
	return args
}

// runPost runs every matching rule, in order, on each file. rel names the
// file in errors: its path is a temporary one.
func (s *scaffold) runPost(ctx context.Context, root string, rels []string) error {
	for _, rel := range rels {
		path := filepath.Join(root, rel)
		for _, r := range s.p.Post {
			if !r.matches(path) {
				continue
			}
			res, err := command.Run(ctx, command.Cmd{Name: r.argv[0], Args: r.args(path), Dir: s.dir, Timeout: s.postTimeout})
			if err != nil {
				return fmt.Errorf("%w: %q on %s: %w", ErrPost, r.raw, rel, err)
			}
			if res.ExitCode != 0 {
				return fmt.Errorf("%w: %q on %s exited with code %d: %s", ErrPost, r.raw, rel, res.ExitCode, bytes.TrimSpace(append(res.Stderr, res.Stdout...)))
			}
		}
	}
	return nil
}

// PropertyKind says post is a list of GLOB: COMMAND pairs.
func (postRules) PropertyKind() resources.Kind { return resources.KindPairs }
