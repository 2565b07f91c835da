package main

import (
	"github.com/reactive-ccm/ccm/engine/daemon/ensure"
	"github.com/reactive-ccm/ccm/graph/schema"
	"github.com/spf13/cobra"
)

// schemas are the JSON Schemas `ccm schema` prints.
var schemas = map[string]func() map[string]any{
	"manifest": schema.Manifest,
	"request":  schema.Request,
	"response": ensure.ResponseSchema,
}

// newSchemaCmd prints the JSON Schemas generated from the resource types'
// property declarations, for editors (yaml-language-server) and programs.
func newSchemaCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "schema manifest|request|response",
		Short: "Print the JSON Schema of manifests, of ensure requests or of their responses",
		Long: "Print the JSON Schema (draft-07) of manifests, of `ccm ensure api pipe` requests " +
			"(generated from the same declarations ccm decodes manifests with) or of its responses " +
			"(upstream's resource_ensure_response, from the events ccm writes).\n\n" +
			"For yaml-language-server, save it and start a manifest with\n" +
			"  # yaml-language-server: $schema=ccm-manifest.json",
		Args:      cobra.MatchAll(cobra.ExactArgs(1), cobra.OnlyValidArgs),
		ValidArgs: []string{"manifest", "request", "response"},
		RunE: func(cmd *cobra.Command, args []string) error {
			return printValue(cmd, schemas[args[0]](), false)
		},
	}
}
