//go:build !manpages

package main

import "github.com/spf13/cobra"

// newManPagesCmd is nil in the binary that ships: the man pages are
// written by a build with the manpages tag (manpages.go).
func newManPagesCmd() *cobra.Command { return nil }
