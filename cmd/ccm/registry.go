package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/fleet/registry"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// addRegistrationFlag registers --registration, the stream registrations()
// reads (and run's --register publishes to); -R as upstream's apply has it.
func addRegistrationFlag(fl *pflag.FlagSet) {
	fl.StringP("registration", "R", registry.DefaultStream, "JetStream stream of service registrations, for registrations() in templates and --register")
}

type registryKey struct{}

// registryOf returns the command's service registry, made on first use
// from its flags (--registration, --register) and kept in its context.
func registryOf(cmd *cobra.Command) (*registry.Registry, error) {
	if r, ok := cmd.Context().Value(registryKey{}).(*registry.Registry); ok {
		return r, nil
	}
	rem, err := remoteOf(cmd)
	if err != nil {
		return nil, err
	}
	o := registry.Options{NATS: rem.nats, Logger: slog.Default(), Stream: flagOf(cmd.Flags().GetString, "registration")}
	if o.Publish, err = registry.ParseDestination(flagOf(cmd.Flags().GetString, "register")); err != nil {
		return nil, usage(fmt.Errorf("--register: %w", err))
	}
	r := registry.New(cmd.Context(), o)
	cmd.SetContext(context.WithValue(cmd.Context(), registryKey{}, r))
	return r, nil
}

// announceTo makes the engine announce its stable resources' entries to
// reg, when --register asks for it; it reports whether it does.
func announceTo(cmd *cobra.Command, opts *engine.Options) (*registry.Registry, bool, error) {
	reg, err := registryOf(cmd)
	if err != nil || flagOf(cmd.Flags().GetString, "register") == "" {
		return reg, false, err
	}
	opts.Announce = func(v *graph.Vertex, stable bool) { reg.Announce(v.ID(), v.Registrations, stable) }
	return reg, true, nil
}

// addEnsureRegistrationFlag registers `ccm ensure TYPE`'s
// --registration/-R. Upstream's -R names the registration stream; ccm's
// took TYPE#NAME references for --require, which no stream name looks
// like: a value holding # still goes to --require.
func addEnsureRegistrationFlag(fl *pflag.FlagSet) {
	v := &streamOrRequire{stream: registry.DefaultStream, fl: fl}
	fl.VarP(v, "registration", "R", "JetStream stream of service registrations, for registrations() in templates; -R TYPE#NAME is --require TYPE#NAME")
	fl.Lookup("registration").DefValue = registry.DefaultStream
}

// streamOrRequire is the value of ensure's -R.
type streamOrRequire struct {
	stream string
	fl     *pflag.FlagSet
}

func (v *streamOrRequire) Set(s string) error {
	if strings.Contains(s, "#") {
		return v.fl.Set("require", s)
	}
	v.stream = s
	return nil
}

func (v *streamOrRequire) String() string { return v.stream }
func (v *streamOrRequire) Type() string   { return "string" }
