// Package apply is the apply resource: a manifest that applies another
// (upstream CCM's nested manifests). The graph reads the child manifest
// when the apply resource runs in a one-shot run (with its parent when it
// exists, for validate and watch mode; see graph.ChildLoading); once
// read, the child's resources run where the apply resource is written, in
// the same engine and session: references cross between the manifests,
// `subscribe: [apply#child.yaml]` refreshes when any child resource
// changed, and in watch mode the child is watched and reloaded like the
// parent.
//
// Guarantees:
//   - noop on an apply resource only strengthens: a child of a noop
//     parent runs in noop whatever it says.
//   - data is merged over the child's resolved data.
//   - A manifest that applies itself, directly or through others, is an
//     error naming the chain, as is nesting deeper than MaxDepth; with
//     allow_apply: false a child applying another manifest is an error.
package apply
