// Package scaffold is the scaffold resource: whole directories rendered
// from a tree of templates with github.com/choria-io/scaffold.
package scaffold
