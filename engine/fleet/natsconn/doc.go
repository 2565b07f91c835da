// Package natsconn connects ccm to NATS the way upstream CCM and the nats
// CLI do, and keeps the connection up for as long as the process lives.
//
// Which server and credentials, in order:
//   - a context named by --context, the agent's nats_context or
//     $NATS_CONTEXT: a nats CLI context (~/.config/nats/context/NAME.json,
//     or an absolute path to such a file) with its URL, user and password,
//     token, creds, nkey and TLS client certificate and CA;
//   - else $NATS_URL, with $NATS_USER/$NATS_PASSWORD, $NATS_CREDS,
//     $NATS_NKEY, $NATS_CERT/$NATS_KEY and $NATS_CA as the nats CLI reads them;
//   - else upstream's default context CCM when it exists, else the nats
//     CLI's selected context, else nats://127.0.0.1:4222.
//
// The connection retries for ever: a server that is down at start or goes
// away later is reconnected to in the background, and callers ask whether
// it is up rather than waiting on it.
package natsconn
