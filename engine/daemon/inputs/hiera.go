package inputs

import (
	"context"
	"errors"
	"os"
	"strings"

	"github.com/reactive-ccm/ccm/engine/fleet/source"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/graph/facts"
	"github.com/reactive-ccm/ccm/graph/hiera"
)

// HieraInputEnv names the input of `ccm hiera parse` when none is given,
// as upstream's hiera tool does.
const HieraInputEnv = "HIERA_INPUT"

// HieraInput splits `ccm hiera parse`'s arguments into its input and the
// FACT=VALUE arguments: the first argument unless it is a FACT=VALUE,
// else $HIERA_INPUT.
func HieraInput(args []string) (input string, set []string, err error) {
	input = os.Getenv(HieraInputEnv)
	if len(args) > 0 && !strings.Contains(args[0], "=") {
		input, args = args[0], args[1:]
	}
	if input == "" {
		return "", nil, errors.New("no input: give a hiera file (or set " + HieraInputEnv + ")")
	}
	return input, args, nil
}

// ReadHiera reads `ccm hiera parse`'s input: a manifest's data sections,
// or a hiera document from a file or a remote source (kv://, https://)
// from the set sources makes, asked only for such an input.
func ReadHiera(input string, sources func() (*source.Set, error)) (hiera.Source, error) {
	if !strings.Contains(input, "://") {
		if src, ok, err := graph.ManifestData(input); ok || err != nil {
			return src, err
		}
	}
	s, err := sources()
	if err != nil {
		return hiera.Source{}, err
	}
	return ReadLayer(s, input)
}

// HieraFacts are the facts `ccm hiera` resolves against: the host's (from
// system; none when nil), then the environment's variables (with env),
// file and the FACT=VALUE set, each over the ones before. warn says what
// of the host's facts could not be gathered; err is a bad file or
// FACT=VALUE.
func HieraFacts(ctx context.Context, system *facts.Cache, env bool, file string, set []string) (all map[string]any, warn, err error) {
	var sys map[string]any
	if system != nil {
		sys, warn = system.System(ctx)
	}
	var vars map[string]string
	if env {
		vars, _ = graph.Environ(false)
	}
	all, err = facts.Layered(sys, vars, file, set)
	return all, warn, err
}

// HieraEnv names the --hiera file used when the flag is not given, as
// upstream CCM does.
const HieraEnv = "CCM_HIERA_DATA"

// HieraFiles are the hiera layers of a load: the --hiera files given,
// else $CCM_HIERA_DATA's.
func HieraFiles(given []string) []string {
	if len(given) > 0 {
		return given
	}
	if f := os.Getenv(HieraEnv); f != "" {
		return []string{f}
	}
	return nil
}
