package natsconn

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// explain adds what to do to the errors an operator meets first.
func explain(err error) error {
	switch {
	case errors.Is(err, nats.ErrAuthorization), errors.Is(err, nats.ErrAuthExpired):
		return fmt.Errorf("%w (check the user, creds or nkey of the context or $NATS_URL)", err)
	case errors.Is(err, nats.ErrNoServers), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%w (is nats-server running, at the URL of the context or $NATS_URL?)", err)
	}
	return err
}

// Explain turns what a JetStream request returned into an error that says
// what to do: JetStream missing on the server or the account, or a
// permission the user lacks (reported at once, not as a timeout).
func Explain(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, jetstream.ErrJetStreamNotEnabledForAccount):
		return fmt.Errorf("%w: enable JetStream for the account ccm connects as", err)
	case errors.Is(err, jetstream.ErrJetStreamNotEnabled), errors.Is(err, nats.ErrNoResponders):
		return fmt.Errorf("%w: start nats-server with JetStream (-js, or jetstream {} in its configuration)", err)
	case errors.Is(err, ErrPermission):
		return fmt.Errorf("%w; the permissions ccm needs are in docs/fleet.md", err)
	}
	return explain(err)
}
