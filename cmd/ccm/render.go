package main

import (
	"strings"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/spf13/cobra"
)

// renderManifest prints arg as ccm reads it (graph.Render): its data
// resolved, its resources_jet_file expanded, one block per resource with
// every template resolved against the current facts and data, and the
// values of sensitive resources redacted. A template that cannot be
// resolved yet is printed as written, and a warning on stderr lists each
// with its position and error.
func renderManifest(cmd *cobra.Command, arg string) error {
	d, err := dataOf(cmd)
	if err != nil {
		return err
	}
	files, err := d.Manifests([]string{arg})
	if err != nil {
		return loadError(err)
	}
	r, err := graph.Render(files[0], loadOptions(cmd))
	if err != nil {
		return usage(err)
	}
	if err := printValue(cmd, r.Document, true); err != nil {
		return err
	}
	if len(r.Unresolved) > 0 {
		cmd.PrintErrf("ccm: warning: %d templates could not be resolved now and are printed as written:\n  %s\n",
			len(r.Unresolved), strings.Join(r.Unresolved, "\n  "))
	}
	return nil
}
