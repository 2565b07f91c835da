package release

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
)

// Check returns why hosts would refuse b, read from file, before it is
// published: a signature that is not one or signs other bytes, with trust
// a signature by none of its keys, a tarball that does not unpack, a
// manifest compile refuses. compile gets the unpacked manifest's path.
func Check(file string, b Bundle, trust []ed25519.PublicKey, compile func(manifest string) error) error {
	if len(b.Signature) > 0 {
		a, err := bundle.Inspect(b.Signature)
		if err != nil {
			return fmt.Errorf("%s%s: %w", file, bundle.SignatureSuffix, err)
		}
		if sum := sha256.Sum256(b.Data); hex.EncodeToString(sum[:]) != a.Digest {
			return fmt.Errorf("%s%s signs other bytes than %s (sign it again, or remove the stale signature)", file, bundle.SignatureSuffix, file)
		}
	}
	if len(trust) > 0 {
		if _, err := bundle.Verify(b.Data, b.Signature, trust); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
	}
	tmp, err := os.MkdirTemp("", "ccm-push-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	manifest, err := bundle.Extract(bytes.NewReader(b.Data), filepath.Join(tmp, "bundle"), bundle.Limits{})
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if err := compile(manifest); err != nil {
		return fmt.Errorf("%s: its manifest does not compile: %w", file, err)
	}
	return nil
}
