package main

import (
	"fmt"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/spf13/cobra"
)

// hostStatus prints what typ's Inspect reports of name: YAML, or JSON.
func hostStatus(cmd *cobra.Command, typName, name string, asJSON bool) error {
	if _, err := setupLogging(cmd); err != nil {
		return err
	}
	typ, ok := resources.Named(typName)
	if !ok || typ.Inspect == nil {
		return usage(fmt.Errorf("no status of %q resources; status shows: %s", typName, strings.Join(resources.Inspectable(), ", ")))
	}
	md, err := typ.Inspect(cmd.Context(), name)
	if err != nil {
		return failure(fmt.Errorf("%s#%s: %w", typ.Name, name, err))
	}
	return printValue(cmd, md, !asJSON)
}
