package main

import (
	"github.com/reactive-ccm/ccm/engine/daemon/ensure"
	"github.com/reactive-ccm/ccm/graph/schema"
	"github.com/spf13/cobra"
)

func newEnsureAPICmd() *cobra.Command {
	api := &cobra.Command{Use: "api", Short: "Converge resources described by programs, in JSON or YAML"}
	var asYAML bool
	var data []string
	pipe := &cobra.Command{
		Use:     "pipe",
		Aliases: []string{"piped"},
		Short:   "Read one ensure request on stdin, converge it, write the response on stdout",
		Long: "Read one request (JSON or YAML) on stdin:\n\n" +
			"  {\"protocol\": \"" + schema.RequestProtocol + "\", \"type\": \"package\", \"properties\": {\"name\": \"zsh\", \"ensure\": \"present\"}}\n\n" +
			"converge the resource, and write {\"protocol\": \"" + ensure.ResponseProtocol + "\", \"state\": EVENT} on stdout, " +
			"or {..., \"error\": \"...\"} when the request cannot be carried out. `ccm schema request` prints the request's JSON Schema. " +
			"The exit status is 0 whenever a response was written: the response says how it went.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			for _, f := range data {
				if err := cmd.Flags().Set("hiera", f); err != nil {
					return err
				}
			}
			typ, props, err := ensure.ReadRequest(cmd.InOrStdin())
			if err != nil {
				return ensure.Respond(nil, err).Write(cmd.OutOrStdout(), asYAML)
			}
			return ensure.Respond(ensureOne(cmd, typ, props, "request")).Write(cmd.OutOrStdout(), asYAML)
		},
	}
	pipe.Flags().BoolVar(&asYAML, "yaml", false, "write the response in YAML instead of JSON")
	pipe.Flags().StringArrayVar(&data, "data", nil, "hiera data file for templates, as --hiera")
	return groupOf(api, pipe)
}
