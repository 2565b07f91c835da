package ensure

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/graph/schema"
	"github.com/reactive-ccm/ccm/resources/document"
	"go.yaml.in/yaml/v3"
)

// ResponseProtocol names the answer of `ccm ensure api pipe`.
const ResponseProtocol = "io.choria.ccm.v1.resource.ensure.response"

// Response is upstream CCM's ensure response: the resource's event, or
// why there is none.
type Response struct {
	Protocol string        `json:"protocol"`
	Error    string        `json:"error,omitempty"`
	State    *engine.Event `json:"state,omitempty"`
}

// Respond is the response to a run that gave ev, or failed with err.
func Respond(ev *engine.Event, err error) Response {
	if err != nil {
		return Response{Protocol: ResponseProtocol, Error: err.Error()}
	}
	return Response{Protocol: ResponseProtocol, State: ev}
}

// ReadRequest reads one ensure request (JSON or YAML) from r and checks
// it (schema.ParseRequest): the resource's type and properties. It reads
// at most document.MaxSize bytes; a longer request is an error.
func ReadRequest(r io.Reader) (typ string, props *yaml.Node, err error) {
	src, err := io.ReadAll(io.LimitReader(r, document.MaxSize+1))
	if err != nil {
		return "", nil, err
	}
	if len(src) > document.MaxSize {
		return "", nil, fmt.Errorf("invalid request: more than %d bytes", document.MaxSize)
	}
	return schema.ParseRequest(src)
}

// Write writes resp as indented JSON, or as YAML with the same keys in
// the same order.
func (resp Response) Write(w io.Writer, asYAML bool) error {
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
