package natsconn

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/nats-io/nats.go"
)

// DefaultContext is upstream CCM's default context name, used when it
// exists and nothing else is named.
const DefaultContext = "CCM"

// Settings choose the NATS server and credentials.
type Settings struct {
	// Context names a nats CLI context, or is the absolute path of a
	// context file.
	Context string
	// Name is the client name the server shows for this connection.
	Name string
	// FailFast is for commands that run once: a server that refuses the
	// credentials or a permission fails them at once (a server not up yet
	// is waited for, as always, up to the caller's context).
	FailFast bool
}

// FromEnv returns settings for the named context, or $NATS_CONTEXT's when
// name is empty.
func FromEnv(name string) Settings {
	if name == "" {
		name = os.Getenv("NATS_CONTEXT")
	}
	return Settings{Context: name}
}

// choice is how Dial will connect: through a context (ctx set, "" for the
// nats CLI's selected one) or to a URL with environment credentials.
type choice struct {
	context string
	url     string
	useCtx  bool
}

func (s Settings) choose() choice {
	switch {
	case s.Context != "":
		return choice{context: s.Context, useCtx: true}
	case os.Getenv("NATS_URL") != "":
		return choice{url: os.Getenv("NATS_URL")}
	case contextExists(DefaultContext):
		return choice{context: DefaultContext, useCtx: true}
	}
	return choice{useCtx: true}
}

// contextExists reports whether the nats CLI knows a context called name.
func contextExists(name string) bool {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return false
		}
		dir = filepath.Join(home, ".config")
	}
	_, err := os.Stat(filepath.Join(dir, "nats", "context", name+".json"))
	return err == nil
}

// envOptions are the credentials the nats CLI reads from the environment
// when it connects to $NATS_URL.
func envOptions() ([]nats.Option, error) {
	var opts []nats.Option
	if u := os.Getenv("NATS_USER"); u != "" {
		opts = append(opts, nats.UserInfo(u, os.Getenv("NATS_PASSWORD")))
	}
	if c := os.Getenv("NATS_CREDS"); c != "" {
		opts = append(opts, nats.UserCredentials(c))
	}
	if n := os.Getenv("NATS_NKEY"); n != "" {
		o, err := nats.NkeyOptionFromSeed(n)
		if err != nil {
			return nil, fmt.Errorf("natsconn: $NATS_NKEY: %w", err)
		}
		opts = append(opts, o)
	}
	if c, k := os.Getenv("NATS_CERT"), os.Getenv("NATS_KEY"); c != "" && k != "" {
		opts = append(opts, nats.ClientCert(c, k))
	}
	if ca := os.Getenv("NATS_CA"); ca != "" {
		opts = append(opts, nats.RootCAs(ca))
	}
	return opts, nil
}
