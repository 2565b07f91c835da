package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"log/slog"
	"os"
	"sync/atomic"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/inputs"
	"github.com/reactive-ccm/ccm/engine/daemon/reload"
	"github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// addSourceFlags registers the flags of remote sources and NATS.
func addSourceFlags(fl *pflag.FlagSet) {
	fl.String("context", "", "NATS context for obj:// and kv:// (default $NATS_CONTEXT; else $NATS_URL; else the context CCM)")
	fl.String("trust", "", "require bundles and https data signed by a key in this file (ed25519 public keys, hex or PEM)")
	fl.Bool("allow-unsigned", false, "without --trust, run unsigned bundles from NATS (obj://) and use kv:// data: the NATS server is not authenticated")
	fl.Bool("allow-unsigned-data", false, "use kv:// data (--hiera, kvGet()), which carries no signature, also under --trust")
	fl.Bool("allow-http", false, "accept plain http:// sources and redirects from https:// to http://")
	fl.Duration("http-interval", 30*time.Second, "how often watch mode asks an http(s) source whether it changed")
	fl.String("cache-dir", "", "cache fetched bundles and data here (default STATE-DIR/sources)")
	fl.String("state-dir", "", "directory for what must survive a restart, such as pending refreshes (default $"+state.PathEnv+", else "+state.DefaultPath+")")
}

// remote is a command's remote sources and NATS connection.
type remote struct {
	sources *source.Set
	nats    *natsconn.Lazy
	// refused hears each refusal of a revision, once a reporter is made.
	refused atomic.Pointer[func()]
}

type remoteKey struct{}

// remoteOf returns the command's remote sources, made on first use from
// its flags and kept in its context for the rest of the command.
func remoteOf(cmd *cobra.Command) (*remote, error) {
	if r, ok := cmd.Context().Value(remoteKey{}).(*remote); ok {
		return r, nil
	}
	log, err := setupLogging(cmd)
	if err != nil {
		return nil, err
	}
	b, s := cmd.Flags().GetBool, cmd.Flags().GetString
	fl := source.Flags{AllowHTTP: flagOf(b, "allow-http"), AllowUnsigned: flagOf(b, "allow-unsigned"), AllowUnsignedData: flagOf(b, "allow-unsigned-data"),
		ReadOnly:  flagOf(b, "noop"), // a noop run writes no cache
		TrustFile: flagOf(s, "trust"), CacheDir: flagOf(s, "cache-dir"), StateDir: flagOf(s, "state-dir"), HTTPInterval: flagOf(cmd.Flags().GetDuration, "http-interval")}
	opts, err := fl.Options()
	if err != nil {
		return nil, usage(err)
	}
	r := &remote{nats: natsconn.NewLazy(natsSettings(cmd, "ccm "+hostName(cmd)), log)}
	opts.NATS, opts.Logger, opts.Host = r.nats, log, hostName(cmd)
	opts.OnRefused = func() {
		if f := r.refused.Load(); f != nil {
			(*f)()
		}
	}
	r.sources = source.NewSet(cmd.Context(), opts)
	cmd.SetContext(context.WithValue(cmd.Context(), remoteKey{}, r))
	return r, nil
}

// trustKeys reads the public keys --trust names; none without it.
func trustKeys(cmd *cobra.Command) ([]ed25519.PublicKey, error) {
	file := flagOf(cmd.Flags().GetString, "trust")
	if file == "" {
		return nil, nil
	}
	return bundle.ReadPublicKeys(file)
}

// hostName is the host's name in reports and to the NATS server:
// --hostname, else the machine's.
func hostName(cmd *cobra.Command) string {
	if fl := cmd.Flags().Lookup("hostname"); fl != nil && fl.Value.String() != "" {
		return fl.Value.String()
	}
	h, _ := os.Hostname()
	return h
}

// closeSources removes what a noop run fetched, once the run is over.
func closeSources(cmd *cobra.Command, log *slog.Logger) {
	r, ok := cmd.Context().Value(remoteKey{}).(*remote)
	if !ok {
		return
	}
	if err := r.sources.Close(); err != nil {
		log.Warn("removing what the noop run fetched", "error", err)
	}
}

// compile compiles the manifests args name (paths, obj:// or https://
// bundles), children read as given, and says what from
// (inputs.Data.Compile). A bad address is unusable input (exit 2), a
// source that cannot be had a failure (exit 1), and problems in the
// manifests unusable input, every one listed.
func compile(cmd *cobra.Command, args []string, children graph.ChildLoading) (*graph.Graph, reload.Inputs, error) {
	d, err := dataOf(cmd)
	if err != nil {
		return nil, reload.Inputs{}, err
	}
	g, in, err := d.Compile(cmd.Context(), args, children)
	return g, in, loadError(err)
}

// loadError is err as ccm exits for it (see compile).
func loadError(err error) error {
	var src *inputs.SourceError
	switch {
	case errors.As(err, &src) && errors.Is(err, source.ErrLocation):
		return usage(err)
	case errors.As(err, &src):
		return failure(err)
	case err != nil:
		return usage(err)
	}
	return nil
}

// loadOrFallBack compiles the manifests, on the last remote bundles that
// compiled when the newest do not (source.Compile), reporting why.
func loadOrFallBack(cmd *cobra.Command, args []string, children graph.ChildLoading, log *slog.Logger) (*graph.Graph, reload.Inputs, error) {
	r, err := remoteOf(cmd)
	if err != nil {
		return nil, reload.Inputs{}, err
	}
	var in reload.Inputs
	g, why, err := source.Compile(r.sources, func() (g *graph.Graph, err error) {
		g, in, err = compile(cmd, args, children)
		return g, err
	})
	if why != nil {
		log.Error("the newest manifests do not compile; running the last bundles that did until a fixed one is published", "error", why)
	}
	return g, in, err
}
