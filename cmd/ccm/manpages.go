//go:build manpages

package main

import (
	"fmt"
	"os"

	"github.com/reactive-ccm/ccm/internal/buildinfo"
	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// newManPagesCmd writes the man pages of ccm and of every command (ccm.1,
// ccm-run.1, ccm-ensure-file.1, …) from the command definitions. `make
// man` and packaging/dist.sh run it at build time, from a build with the
// manpages tag, so the pages say what the binary does and are never
// edited by hand. Hidden: it is a build step. The binary that ships
// leaves it out (nomanpages.go): cobra/doc's markdown renderer
// (blackfriday) compiles its regular expressions as each run starts.
func newManPagesCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "man-pages DIR",
		Short:  "Write the man pages of ccm and every command into DIR",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return writeManPages(args[0])
		},
	}
}

// writeManPages writes one page per command of the whole tree into dir.
// The date in each page is $SOURCE_DATE_EPOCH's when set, so a release
// build gives the same pages twice.
func writeManPages(dir string) error {
	root := newRoot(nil)
	root.InitDefaultCompletionCmd()
	for _, c := range allCommands(root) {
		c.DisableAutoGenTag = true
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return usage(err)
	}
	header := &doc.GenManHeader{Section: "1", Source: "ccm " + buildinfo.Version(), Manual: "ccm manual"}
	if err := doc.GenManTree(root, header, dir); err != nil {
		return fmt.Errorf("writing man pages into %s: %w", dir, err)
	}
	return nil
}

// allCommands is cmd and every command below it.
func allCommands(cmd *cobra.Command) []*cobra.Command {
	out := []*cobra.Command{cmd}
	for _, c := range cmd.Commands() {
		out = append(out, allCommands(c)...)
	}
	return out
}
