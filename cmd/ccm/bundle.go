package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/spf13/cobra"
)

// newBundleCmd groups what an operator needs to publish manifests to a
// fleet without another tool.
func newBundleCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bundle",
		Short: "Make, sign and publish manifest bundles (gzipped tarballs holding manifest.yaml)",
	}
	return groupOf(cmd, newBundlePackCmd(), newBundleSignCmd(), newBundlePushCmd(), newBundleKeygenCmd(), newBundleHistoryCmd(), newBundleRollbackCmd())
}

func newBundlePackCmd() *cobra.Command {
	var out, key string
	cmd := &cobra.Command{
		Use:   "pack DIR [-o FILE] [--sign KEYFILE]",
		Short: "Pack a directory holding manifest.yaml into a bundle (default DIR.tgz); --sign also writes FILE.sig",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				out = filepath.Clean(args[0]) + ".tgz"
			}
			var b bytes.Buffer
			if err := bundle.Pack(args[0], &b); err != nil {
				return usage(err)
			}
			if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "packed %s (%d bytes)\n", out, b.Len())
			if key == "" {
				return removeStaleSignature(cmd, out)
			}
			return signFile(cmd, out, key)
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "bundle file to write (default DIR.tgz)")
	cmd.Flags().StringVar(&key, "sign", "", "sign with this ed25519 private key (hex seed or PEM)")
	return cmd
}

// removeStaleSignature removes FILE.sig, which signed the tarball FILE
// held before (bundle.RemoveSignature).
func removeStaleSignature(cmd *cobra.Command, file string) error {
	sig, err := bundle.RemoveSignature(file)
	if sig != "" {
		fmt.Fprintf(cmd.OutOrStdout(), "removed %s, which signed the previous %s\n", sig, file)
	}
	return err
}

func newBundleSignCmd() *cobra.Command {
	var key string
	cmd := &cobra.Command{
		Use:   "sign FILE --key KEYFILE",
		Short: "Sign a bundle: writes FILE.sig, which push attaches and --trust checks",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if key == "" {
				return usage(errors.New("--key KEYFILE is required"))
			}
			return signFile(cmd, args[0], key)
		},
	}
	cmd.Flags().StringVar(&key, "key", "", "ed25519 private key (hex seed or PEM)")
	return cmd
}

// signFile writes file.sig (release.SignFile).
func signFile(cmd *cobra.Command, file, keyFile string) error {
	sig, err := release.SignFile(file, keyFile)
	if err != nil {
		return releaseError(err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "signed %s: %s\n", file, sig)
	return nil
}

func newBundleKeygenCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "keygen FILE",
		Short: "Make an ed25519 key pair: FILE (private, mode 0600) for sign and pack --sign, FILE.pub for --trust",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pub, err := bundle.GenerateKey(args[0])
			if err != nil {
				return usage(err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s and %s.pub (public key %x)\n", args[0], args[0], []byte(pub))
			return nil
		},
	}
}
