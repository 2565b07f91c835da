// Package graph turns CCM manifests into a validated, typed dependency DAG.
//
// Loading is all-or-nothing and touches nothing on the host: every file is
// parsed by walking yaml.Node trees so order and positions survive, every
// resource is built through its registered type, and every problem found
// (syntax, unknown or duplicate keys, wrong types, invalid values, unknown
// or duplicate references, cycles) is reported together as
// `file:line:col: message`.
//
// The resulting Graph has one vertex per resource, edges from `require`,
// `subscribe` and automatic path ownership, and a topological order that
// keeps manifest order wherever no edge constrains it.
package graph
