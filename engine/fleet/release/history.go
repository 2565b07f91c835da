package release

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
	"github.com/reactive-ccm/ccm/internal/termsafe"
)

// Object metadata keys.
const (
	// SignatureMeta holds a bundle's signature, so the bundle and its
	// signature change in one atomic put.
	SignatureMeta = "ccm-signature"
	// PushedByMeta says who pushed it: user@host, and why for a rollback.
	PushedByMeta = "ccm-pushed-by"
)

// DefaultKeep is how many revisions of a bundle the history keeps.
const DefaultKeep = 10

const historyPrefix = ".history/"

// historyName is the object holding revision seq of key.
func historyName(key string, seq int) string {
	return fmt.Sprintf("%s%s/%08d", historyPrefix, key, seq)
}

// Entry is one revision in a bundle's history.
type Entry struct {
	Seq    int       `json:"seq"`
	Digest string    `json:"digest"`
	Size   uint64    `json:"size"`
	Pushed time.Time `json:"pushed"`
	// PushedBy is user@host of whoever pushed it.
	PushedBy string `json:"pushed_by,omitempty"`
	// Signature is as pushed; Signed what it states, unchecked (zero when
	// unsigned or unreadable).
	Signature string             `json:"signature,omitempty"`
	Signed    bundle.Attestation `json:"signed,omitzero"`
	// Current is set on the revision the object KEY holds now.
	Current bool `json:"current,omitempty"`
	name    string
}

// History lists the revisions of key kept in obs, oldest first.
func History(ctx context.Context, obs jetstream.ObjectStore, key string) ([]Entry, error) {
	list, err := obs.List(ctx)
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("release: listing %s: %w", key, err)
	}
	cur, _ := obs.GetInfo(ctx, key)
	var out []Entry
	prefix := historyPrefix + key + "/"
	for _, info := range list {
		n, ok := strings.CutPrefix(info.Name, prefix)
		seq, err := strconv.Atoi(n)
		if !ok || err != nil || info.Deleted {
			continue
		}
		e := Entry{Seq: seq, Digest: info.Digest, Size: info.Size, Pushed: info.ModTime, PushedBy: info.Metadata[PushedByMeta],
			Signature: info.Metadata[SignatureMeta], name: info.Name}
		e.Signed, _ = bundle.Inspect([]byte(e.Signature))
		e.Current = cur != nil && cur.Digest == e.Digest && cur.Metadata[SignatureMeta] == e.Signature
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	// Only the newest entry matching the current object is current.
	seen := false
	for i := len(out) - 1; i >= 0; i-- {
		out[i].Current = out[i].Current && !seen
		seen = seen || out[i].Current
	}
	return out, nil
}

// Read returns the bundle of a history entry.
func Read(ctx context.Context, obs jetstream.ObjectStore, e Entry) ([]byte, error) {
	data, _, err := Fetch(ctx, obs, e.name, int64(e.Size))
	if err != nil {
		return nil, fmt.Errorf("release: reading revision %d: %w", e.Seq, err)
	}
	return data, nil
}

// trim removes the oldest entries of key beyond keep.
func trim(ctx context.Context, obs jetstream.ObjectStore, key string, keep int) error {
	all, err := History(ctx, obs, key)
	if err != nil {
		return err
	}
	for i := 0; i < len(all)-keep; i++ {
		if err := obs.Delete(ctx, all[i].name); err != nil {
			return fmt.Errorf("release: trimming the history of %s: %w", key, err)
		}
	}
	return nil
}

// Pusher is who runs this process, as user@host.
func Pusher() string {
	name := "uid " + strconv.Itoa(os.Getuid())
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	host, _ := os.Hostname()
	return name + "@" + host
}

// PrintHistory writes the revisions as a table, * marking the current
// one.
func PrintHistory(w io.Writer, all []Entry) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "REVISION\tPUSHED\tBY\tDIGEST\tSIGNED")
	for _, e := range all {
		mark := ""
		if e.Current {
			mark = " *"
		}
		fmt.Fprintf(tw, "%d%s\t%s\t%s\t%s\t%s\n", e.Seq, mark, e.Pushed.Local().Format(time.DateTime), termsafe.OneLine(e.PushedBy), ShortDigest(e.Digest), bundle.Describe([]byte(e.Signature)))
	}
	return tw.Flush()
}
