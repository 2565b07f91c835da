package natstest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"
)

// NKeyUser makes a user nkey for Options.NKeys. It returns the public key
// and the path of a file holding the seed, which is what the nats CLI's
// context (nkey) and $NATS_NKEY name.
func NKeyUser(t testing.TB) (public, seedFile string) {
	t.Helper()
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	seed, err := kp.Seed()
	if err != nil {
		t.Fatal(err)
	}
	if public, err = kp.PublicKey(); err != nil {
		t.Fatal(err)
	}
	return public, writeSecret(t, "user.nk", seed)
}

// Operator is a trust chain for operator (JWT) mode: an operator, the
// system account JetStream needs, and one account allowed JetStream whose
// users are minted as creds files.
type Operator struct {
	claims  *jwt.OperatorClaims
	system  account
	account account
}

// account is an account's key and the JWT its operator signed.
type account struct {
	key nkeys.KeyPair
	pub string
	jwt string
}

// NewOperator makes an operator and its accounts.
func NewOperator(t testing.TB) *Operator {
	t.Helper()
	okp, err := nkeys.CreateOperator()
	if err != nil {
		t.Fatal(err)
	}
	opub, _ := okp.PublicKey()
	o := &Operator{claims: jwt.NewOperatorClaims(opub)}
	o.system = newAccount(t, okp, "SYS", false)
	o.account = newAccount(t, okp, "ccm", true)
	o.claims.SystemAccount = o.system.pub
	return o
}

// newAccount makes an account signed by the operator okp.
func newAccount(t testing.TB, okp nkeys.KeyPair, name string, jetStream bool) account {
	t.Helper()
	kp, err := nkeys.CreateAccount()
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := kp.PublicKey()
	ac := jwt.NewAccountClaims(pub)
	ac.Name = name
	if jetStream {
		ac.Limits.JetStreamLimits = jwt.JetStreamLimits{MemoryStorage: -1, DiskStorage: -1, Streams: -1, Consumer: -1}
	}
	signed, err := ac.Encode(okp)
	if err != nil {
		t.Fatal(err)
	}
	return account{key: kp, pub: pub, jwt: signed}
}

// Creds mints a user of the account and returns the path of its creds
// file (its JWT and seed), which is what the nats CLI's context (creds)
// and $NATS_CREDS name.
func (o *Operator) Creds(t testing.TB) string {
	t.Helper()
	ukp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	upub, _ := ukp.PublicKey()
	uc := jwt.NewUserClaims(upub)
	ujwt, err := uc.Encode(o.account.key)
	if err != nil {
		t.Fatal(err)
	}
	seed, _ := ukp.Seed()
	creds, err := jwt.FormatUserConfig(ujwt, seed)
	if err != nil {
		t.Fatal(err)
	}
	return writeSecret(t, "user.creds", creds)
}

// configure makes opts trust the operator and know its account.
func (o *Operator) configure(t testing.TB, opts *server.Options) {
	t.Helper()
	res := &server.MemAccResolver{}
	for _, a := range []account{o.system, o.account} {
		if err := res.Store(a.pub, a.jwt); err != nil {
			t.Fatal(err)
		}
	}
	opts.TrustedOperators = []*jwt.OperatorClaims{o.claims}
	opts.AccountResolver = res
	opts.SystemAccount = o.system.pub
}

// writeSecret writes a key file only its owner reads, in a directory of
// its own.
func writeSecret(t testing.TB, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
