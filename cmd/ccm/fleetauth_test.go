package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn/natstest"
)

// TestFleetAuthenticates: a bundle pushed and fetched from the object
// store and hiera data and kvGet() values read from KV, on a server that
// lets in only an nkey or only creds files, named by a nats context or by
// the environment.
func TestFleetAuthenticates(t *testing.T) {
	pub, seed := natstest.NKeyUser(t)
	nkeyOpt, err := nats.NkeyOptionFromSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	op := natstest.NewOperator(t)
	creds := op.Creds(t)
	nkeyServer := natstest.Options{NKeys: []string{pub}}
	credsServer := natstest.Options{Operator: op}
	tests := []struct {
		name   string
		server natstest.Options
		auth   nats.Option
		// context is a nats context's settings beside its url; env, when
		// context is empty, what is set beside $NATS_URL.
		context, env string
	}{
		{"nkey in a context", nkeyServer, nkeyOpt, fmt.Sprintf(`"nkey": %q`, seed), ""},
		{"NATS_NKEY", nkeyServer, nkeyOpt, "", "NATS_NKEY=" + seed},
		{"creds in a context", credsServer, nats.UserCredentials(creds), fmt.Sprintf(`"creds": %q`, creds), ""},
		{"NATS_CREDS", credsServer, nats.UserCredentials(creds), "", "NATS_CREDS=" + creds},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFleetWith(t, tt.server, tt.auth)
			if tt.context != "" {
				f.useContext(fmt.Sprintf(`{"url": %q, %s}`, f.srv.URL(), tt.context))
			} else {
				f.env = append(f.env, tt.env)
			}
			dir := t.TempDir()
			f.putKV("data", "common", "data:\n  greeting: hello\n")
			f.putKV("cfg", "port", "8080")
			f.publish(dir, "obj://ccm/app.tgz", appConf, "")
			f.must("run", "--allow-unsigned", "--state-dir", t.TempDir(), "--hiera", "kv://data/common", "obj://ccm/app.tgz")
			if got := read(t, dir+"/app.conf"); got != "hello on 8080\n" {
				t.Fatalf("app.conf = %q", got)
			}
		})
	}
}

// useContext makes ccm processes connect through a nats context holding
// body, selected by $NATS_CONTEXT, with no $NATS_URL.
func (f *fleet) useContext(body string) {
	f.t.Helper()
	cfg := f.t.TempDir()
	dir := filepath.Join(cfg, "nats", "context")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fleet.json"), []byte(body), 0o600); err != nil {
		f.t.Fatal(err)
	}
	f.env = append(f.env, "NATS_URL=", "NATS_CONTEXT=fleet", "XDG_CONFIG_HOME="+cfg)
}
