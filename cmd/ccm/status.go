package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/spf13/cobra"
)

// hostStatus prints what typ's Inspect reports of name: YAML, or JSON.
func hostStatus(cmd *cobra.Command, typName, name string, asJSON bool) error {
	if _, err := setupLogging(cmd); err != nil {
		return err
	}
	typ, ok := typeNamed(typName)
	if !ok || typ.Inspect == nil {
		return usage(fmt.Errorf("no status of %q resources; status shows: %s", typName, strings.Join(inspectable(), ", ")))
	}
	md, err := typ.Inspect(cmd.Context(), name)
	if err != nil {
		return &exitError{code: exitFailed, err: fmt.Errorf("%s#%s: %w", typ.Name, name, err)}
	}
	return printValue(cmd, md, !asJSON)
}

// typeNamed finds a type by its name or one of its command-line aliases.
func typeNamed(name string) (resources.Type, bool) {
	for _, n := range resources.TypeNames() {
		t, _ := resources.Lookup(n)
		if t.Name == name || slices.Contains(t.Aliases, name) {
			return t, true
		}
	}
	return resources.Type{}, false
}

// inspectable lists the types whose status can be shown.
func inspectable() []string {
	var out []string
	for _, n := range resources.TypeNames() {
		if t, _ := resources.Lookup(n); t.Inspect != nil {
			out = append(out, n)
		}
	}
	return out
}
