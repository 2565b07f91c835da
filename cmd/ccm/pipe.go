package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/graph/schema"
	"github.com/reactive-ccm/ccm/resources/document"
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"
)

// responseProtocol names the answer of `ccm ensure api pipe`.
const responseProtocol = "io.choria.ccm.v1.resource.ensure.response"

// pipeResponse is upstream CCM's ensure response: the resource's event,
// or why there is none.
type pipeResponse struct {
	Protocol string        `json:"protocol"`
	Error    string        `json:"error,omitempty"`
	State    *engine.Event `json:"state,omitempty"`
}

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
			"converge the resource, and write {\"protocol\": \"" + responseProtocol + "\", \"state\": EVENT} on stdout, " +
			"or {..., \"error\": \"...\"} when the request cannot be carried out. `ccm schema request` prints the request's JSON Schema. " +
			"The exit status is 0 whenever a response was written: the response says how it went.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			for _, f := range data {
				if err := cmd.Flags().Set("hiera", f); err != nil {
					return err
				}
			}
			resp := pipeResponse{Protocol: responseProtocol}
			ev, err := pipeOnce(cmd, cmd.InOrStdin())
			if err != nil {
				resp.Error = err.Error()
			} else {
				resp.State = ev
			}
			return writeResponse(cmd.OutOrStdout(), resp, asYAML)
		},
	}
	pipe.Flags().BoolVar(&asYAML, "yaml", false, "write the response in YAML instead of JSON")
	pipe.Flags().StringArrayVar(&data, "data", nil, "hiera data file for templates, as --hiera")
	return groupOf(api, pipe)
}

// pipeOnce reads and checks one request from r and converges it. The
// request is bounded as a manifest is: at most document.MaxSize bytes,
// and the same budget for what its YAML aliases expand to.
func pipeOnce(cmd *cobra.Command, r io.Reader) (*engine.Event, error) {
	src, err := io.ReadAll(io.LimitReader(r, document.MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > document.MaxSize {
		return nil, fmt.Errorf("invalid request: more than %d bytes", document.MaxSize)
	}
	typ, props, err := schema.ParseRequest(src)
	if err != nil {
		return nil, err
	}
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	return ensureOne(cmd, graph.Entry{Type: typ, Props: props, File: "request", Dir: dir})
}

// writeResponse writes resp as indented JSON, or as YAML with the same
// keys in the same order.
func writeResponse(w io.Writer, resp pipeResponse, asYAML bool) error {
	b, err := json.MarshalIndent(resp, "", "  ")
	if err != nil {
		return err
	}
	if !asYAML {
		_, err = fmt.Fprintln(w, string(b))
		return err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return err
	}
	blockStyle(&doc)
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return err
	}
	_, err = io.WriteString(w, strings.TrimSuffix(out.String(), "\n")+"\n")
	return err
}

// blockStyle drops the styles JSON parses into (flow collections, quoted
// strings), so YAML prints in its own style; strings that would read as
// another type stay quoted.
func blockStyle(n *yaml.Node) {
	n.Style = 0
	for _, c := range n.Content {
		blockStyle(c)
	}
}
