package source

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// Scheme names a kind of source.
type Scheme string

const (
	File   Scheme = "file"
	Object Scheme = "obj"
	KV     Scheme = "kv"
	HTTPS  Scheme = "https"
	HTTP   Scheme = "http"
)

// Location is a parsed source address.
type Location struct {
	Scheme Scheme
	// Bucket and Key address obj:// and kv:// sources.
	Bucket, Key string
	// URL addresses http(s):// sources; it may carry basic-auth
	// credentials, which String leaves out.
	URL *url.URL
	// Path is a local file's path.
	Path string
}

// bucketName is what JetStream accepts as a bucket name.
var bucketName = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

// Parse reads a source address: a local path (or file://PATH), obj://BUCKET/KEY,
// kv://BUCKET/KEY, https://... or, with allowHTTP, http://....
func Parse(raw string, allowHTTP bool) (Location, error) {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return Location{Scheme: File, Path: raw}, nil
	}
	switch Scheme(scheme) {
	case File:
		return Location{Scheme: File, Path: rest}, nil
	case Object, KV:
		bucket, key, _ := strings.Cut(rest, "/")
		if !bucketName.MatchString(bucket) || key == "" {
			return Location{}, fmt.Errorf("%w: %s: want %s://BUCKET/KEY, BUCKET of letters, digits, _ and -", ErrLocation, raw, scheme)
		}
		return Location{Scheme: Scheme(scheme), Bucket: bucket, Key: key}, nil
	case HTTP:
		if !allowHTTP {
			return Location{}, fmt.Errorf("%w: %s: plain http:// is refused unless allowed (--allow-http); use https://", ErrLocation, redact(raw))
		}
		fallthrough
	case HTTPS:
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return Location{}, fmt.Errorf("%w: %s: not a URL", ErrLocation, redact(raw))
		}
		return Location{Scheme: Scheme(scheme), URL: u}, nil
	}
	return Location{}, fmt.Errorf("%w: %s: unknown scheme %q; use a path, obj://, kv://, https:// or http://", ErrLocation, redact(raw), scheme)
}

// ParseObject reads obj://BUCKET/KEY, a bundle in an object store;
// any other address is ErrLocation.
func ParseObject(raw string) (Location, error) {
	loc, err := Parse(raw, false)
	if err != nil || loc.Scheme != Object {
		return Location{}, fmt.Errorf("%w: %s: want obj://BUCKET/KEY", ErrLocation, redact(raw))
	}
	return loc, nil
}

// redact hides a password in a raw URL for error messages.
func redact(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Redacted()
	}
	return "the URL"
}

// Remote reports whether the source is fetched rather than read locally.
func (l Location) Remote() bool { return l.Scheme != File }

// LocalPaths keeps the local files of sources (paths and file://), the
// ones inotify can watch; remote and unusable addresses are left out.
func LocalPaths(sources []string) []string {
	var out []string
	for _, raw := range sources {
		if loc, err := Parse(raw, true); err == nil && !loc.Remote() {
			out = append(out, loc.Path)
		}
	}
	return out
}

// NATS reports whether the source lives in NATS JetStream.
func (l Location) NATS() bool { return l.Scheme == Object || l.Scheme == KV }

// String is the address, without credentials.
func (l Location) String() string {
	switch l.Scheme {
	case File:
		return l.Path
	case Object, KV:
		return string(l.Scheme) + "://" + l.Bucket + "/" + l.Key
	}
	return l.URL.Redacted()
}

// cacheName is the directory name of the source's cache: readable, and
// unique thanks to a hash of the full address.
func (l Location) cacheName() string {
	id := l.String()
	if l.URL != nil {
		id = l.URL.String()
	}
	sum := sha256.Sum256([]byte(id))
	var readable string
	switch l.Scheme {
	case Object, KV:
		readable = l.Bucket + "_" + l.Key
	default:
		readable = l.URL.Host + l.URL.Path
	}
	readable = unsafeChars.ReplaceAllString(readable, "_")
	if len(readable) > 64 {
		readable = readable[:64]
	}
	return string(l.Scheme) + "_" + readable + "-" + hex.EncodeToString(sum[:6])
}

var unsafeChars = regexp.MustCompile(`[^a-zA-Z0-9._-]`)
