package main

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/registry"
	"github.com/reactive-ccm/ccm/internal/termsafe"
	"github.com/reactive-ccm/ccm/resources/registration"
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"
)

// newRegistrationCmd is upstream CCM's `ccm registration`: the service
// registry, read and written by hand.
func newRegistrationCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "registration",
		Aliases: []string{"reg", "r"},
		Short:   "Query, watch and edit the service registry (registrations of stable resources)",
	}
	fl := cmd.PersistentFlags()
	fl.String("context", "", contextHelp)
	fl.StringP("registration", "R", registry.DefaultStream, "JetStream stream holding the registrations")
	return groupOf(cmd, newRegCreateCmd(), newRegInitCmd(), newRegQueryCmd(), newRegRmCmd(), newRegWatchCmd())
}

// openRegistry connects to the registry the flags name.
func openRegistry(cmd *cobra.Command) (*registry.Registry, error) {
	log, err := setupLogging(cmd)
	if err != nil {
		return nil, err
	}
	lazy := natsconn.NewLazy(natsSettings(cmd, ""), log)
	go func() {
		<-cmd.Context().Done()
		lazy.Close()
	}()
	return registry.New(cmd.Context(), registry.Options{NATS: lazy, Stream: flagOf(cmd.Flags().GetString, "registration"), Logger: log}), nil
}

// userLog writes what a command did as log lines on stdout, as upstream
// does.
func userLog(cmd *cobra.Command) *slog.Logger {
	return slog.New(eventlog.NewLogHandler(cmd.OutOrStdout(), slog.LevelInfo, false))
}

// failure marks err as a failure (exit 1) rather than unusable input.
func failure(err error) error { return &exitError{code: exitFailed, err: err} }

func newRegCreateCmd() *cobra.Command {
	var e registration.Entry
	var port int64
	var priority int
	var ttl string
	var ann map[string]string
	cmd := &cobra.Command{
		Use:     "create",
		Aliases: []string{"c"},
		Short:   "Publish a registration entry",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			e.Port, e.Priority, e.Annotations = port, int64(priority), ann
			if ttl != "" {
				t, err := registration.ParseTTL(ttl)
				if err != nil {
					return usage(err)
				}
				e.TTL = t
			}
			if err := e.Validate(); err != nil {
				return usage(fmt.Errorf("invalid registration entry: %w", err))
			}
			reg, err := openRegistry(cmd)
			if err != nil {
				return err
			}
			if err := reg.Publish(cmd.Context(), &e, registry.JetStream); err != nil {
				return failure(err)
			}
			userLog(cmd).Info("Registration entry created", "cluster", e.Cluster, "service", e.Service, "protocol", e.Protocol, "address", e.Address, "port", port, "priority", priority)
			return nil
		},
	}
	fl := cmd.Flags()
	entryFlags(cmd, &e, &port)
	fl.IntVar(&priority, "priority", 100, "the priority (1-255)")
	fl.StringVar(&ttl, "ttl", "30s", "time to live for the entry (a duration or never)")
	fl.StringToStringVarP(&ann, "annotation", "A", nil, "annotations in key=value format (repeatable)")
	return cmd
}

// entryFlags registers the required flags naming an entry.
func entryFlags(cmd *cobra.Command, e *registration.Entry, port *int64) {
	fl := cmd.Flags()
	fl.StringVar(&e.Cluster, "cluster", "", "the cluster name")
	fl.StringVar(&e.Service, "service", "", "the service name")
	fl.StringVar(&e.Protocol, "protocol", "", "the protocol name")
	fl.StringVar(&e.Address, "address", "", "the IP address")
	fl.Int64Var(port, "port", 0, "the port number")
	for _, name := range []string{"cluster", "service", "protocol", "address", "port"} {
		_ = cmd.MarkFlagRequired(name)
	}
}

func newRegInitCmd() *cobra.Command {
	var s registry.StreamSettings
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create or update the registration JetStream stream",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if s.Replicas < 1 || s.Replicas > 5 {
				return usage(fmt.Errorf("replicas must be between 1 and 5"))
			}
			reg, err := openRegistry(cmd)
			if err != nil {
				return err
			}
			info, err := reg.Init(cmd.Context(), s)
			if err != nil {
				return failure(err)
			}
			userLog(cmd).Info("Registration stream ready", "stream", info.Config.Name, "subjects", fmt.Sprint(info.Config.Subjects), "replicas", info.Config.Replicas)
			return nil
		},
	}
	cmd.Flags().IntVar(&s.Replicas, "replicas", 1, "number of stream replicas")
	cmd.Flags().DurationVar(&s.MaxAge, "max-age", time.Minute, "maximum age of messages in the stream: how long an entry without a TTL lives, and removal markers stay")
	return cmd
}

const filterUse = "[CLUSTER [PROTOCOL [SERVICE [ADDRESS]]]]"

func newRegQueryCmd() *cobra.Command {
	var asJSON, asYAML bool
	cmd := &cobra.Command{
		Use:     "query " + filterUse,
		Aliases: []string{"q"},
		Short:   "Look up registered entries; each argument may be * (the default)",
		Args:    cobra.MaximumNArgs(4),
		RunE: func(cmd *cobra.Command, args []string) error {
			reg, err := openRegistry(cmd)
			if err != nil {
				return err
			}
			res, err := reg.Lookup(registry.FilterArgs(args))
			if err != nil {
				return failure(err)
			}
			switch {
			case asJSON:
				return printValue(cmd, res, false)
			case asYAML:
				b, err := yaml.Marshal(res)
				if err != nil {
					return err
				}
				_, err = fmt.Fprintln(cmd.OutOrStdout(), string(b))
				return err
			}
			return registry.PrintEntries(cmd.OutOrStdout(), res)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "render results in JSON format")
	cmd.Flags().BoolVar(&asYAML, "yaml", false, "render results in YAML format")
	return cmd
}

func newRegRmCmd() *cobra.Command {
	var e registration.Entry
	var port int64
	var force bool
	cmd := &cobra.Command{
		Use:     "rm",
		Aliases: []string{"delete"},
		Short:   "Remove a registration entry (watchers see it go)",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			e.Port, e.Priority = port, 1
			if err := e.Validate(); err != nil {
				return usage(fmt.Errorf("invalid registration entry: %w", err))
			}
			if !force {
				ok, err := termsafe.Confirm(os.Stdin, cmd.InOrStdin(), cmd.OutOrStdout(), fmt.Sprintf("Remove registration entry %s/%s/%s at %s:%d?", e.Cluster, e.Service, e.Protocol, e.Address, port))
				if err != nil {
					return usage(fmt.Errorf("%w: give --force", err))
				}
				if !ok {
					return nil
				}
			}
			reg, err := openRegistry(cmd)
			if err != nil {
				return err
			}
			if err := reg.Remove(cmd.Context(), &e); err != nil {
				return failure(err)
			}
			userLog(cmd).Info("Registration entry removed", "cluster", e.Cluster, "service", e.Service, "protocol", e.Protocol, "address", e.Address, "port", port)
			return nil
		},
	}
	entryFlags(cmd, &e, &port)
	cmd.Flags().BoolVar(&force, "force", false, "skip the confirmation prompt")
	return cmd
}

func newRegWatchCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "watch " + filterUse,
		Short: "Watch registrations come, change and go, until interrupted",
		Args:  cobra.MaximumNArgs(4),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			cmd.SetContext(ctx)
			reg, err := openRegistry(cmd)
			if err != nil {
				return err
			}
			events, err := reg.Events(ctx, registry.FilterArgs(args))
			if err != nil {
				return failure(err)
			}
			log, enc := userLog(cmd), json.NewEncoder(cmd.OutOrStdout())
			for ev := range events {
				if asJSON {
					if err := enc.Encode(ev); err != nil {
						return err
					}
					continue
				}
				ev.Log(log)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print each event as a JSON object")
	return cmd
}
