package registration

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"net"
	"regexp"
	"strings"
)

// SubjectPrefix starts every registration subject.
const SubjectPrefix = "choria.ccm.registration.v1"

// validName is upstream's rule for a cluster, protocol or service: one
// NATS subject token that starts with a letter.
var validName = regexp.MustCompile(`^[a-zA-Z][a-zA-Z\d_-]*$`)

// Entry is one service endpoint a host announces. Its JSON is upstream's
// payload; the field names are also what templates see (entry.Address,
// entry.Port, entry.Priority).
type Entry struct {
	Cluster  string `json:"cluster" yaml:"cluster"`
	Service  string `json:"service" yaml:"service"`
	Protocol string `json:"protocol" yaml:"protocol"`
	Address  string `json:"address" yaml:"address"`
	// Port is an int64, or nil when the entry has none (upstream allows
	// that; Prometheus file_sd then leaves the entry out).
	Port        any               `json:"port" yaml:"port"`
	Priority    int64             `json:"priority" yaml:"priority"`
	Annotations map[string]string `json:"annotations,omitempty" yaml:"annotations,omitempty"`
	TTL         *TTL              `json:"ttl,omitempty" yaml:"ttl,omitempty"`
}

// Entries is the result of a lookup, sorted by address, then port.
type Entries []*Entry

// Digest identifies the entries, in their order: what a lookup found.
func (es Entries) Digest() string {
	h := sha256.New()
	for _, e := range es {
		b, _ := e.Payload()
		h.Write(b)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// PortNumber returns the port, 0 when the entry has none.
func (e *Entry) PortNumber() int64 {
	switch p := e.Port.(type) {
	case int64:
		return p
	case int:
		return int64(p)
	case float64:
		return int64(p)
	case json.Number:
		n, _ := p.Int64()
		return n
	}
	return 0
}

// InstanceID is upstream's deterministic id of the endpoint: the FNV-64a
// hash of cluster, service, protocol, address and port, in hex. A missing
// port hashes as upstream's fmt.Sprintf("%d", nil) prints it.
func (e *Entry) InstanceID() string {
	h := fnv.New64a()
	h.Write([]byte(e.Cluster))
	h.Write([]byte(e.Service))
	h.Write([]byte(e.Protocol))
	h.Write([]byte(e.Address))
	if e.Port == nil {
		h.Write([]byte("%!d(<nil>)"))
	} else {
		fmt.Fprintf(h, "%d", e.PortNumber())
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Subject is the subject the entry is published on.
func (e *Entry) Subject() string {
	return fmt.Sprintf("%s.%s.%s.%s.%s.%s", SubjectPrefix, e.Cluster, e.Protocol, e.Service, subjectAddress(e.Address), e.InstanceID())
}

// subjectAddress makes an address one subject token: dots become
// underscores (an IPv6 address keeps its colons, as upstream's does).
func subjectAddress(a string) string { return strings.ReplaceAll(a, ".", "_") }

// Validate applies upstream's rules: names that are one token starting
// with a letter, an IP address, a port from 1 to 65535 when given, a
// priority from 1 to 255.
func (e *Entry) Validate() error {
	for _, f := range []struct{ what, v string }{{"cluster", e.Cluster}, {"protocol", e.Protocol}, {"service", e.Service}} {
		if f.v == "" {
			return fmt.Errorf("%w: %s is required", ErrInvalid, f.what)
		}
		if !validName.MatchString(f.v) {
			return fmt.Errorf("%w: %s %q is not a valid name (a letter, then letters, digits, _ and -)", ErrInvalid, f.what, f.v)
		}
	}
	if e.Address == "" {
		return fmt.Errorf("%w: address is required", ErrInvalid)
	}
	if net.ParseIP(e.Address) == nil {
		return fmt.Errorf("%w: address %q is not an IP address", ErrInvalid, e.Address)
	}
	if e.Port != nil {
		if p := e.PortNumber(); p < 1 || p > math.MaxUint16 {
			return fmt.Errorf("%w: port %d must be between 1 and %d", ErrInvalid, p, math.MaxUint16)
		}
	}
	if e.Priority < 1 || e.Priority > math.MaxUint8 {
		return fmt.Errorf("%w: priority %d must be between 1 and 255", ErrInvalid, e.Priority)
	}
	return nil
}

// Payload is the message body: the entry as JSON.
func (e *Entry) Payload() ([]byte, error) { return json.Marshal(e) }

// Decode reads a payload, its port an int64 as ccm's own entries hold it
// (JSON numbers would otherwise decode as float64).
func Decode(payload []byte) (*Entry, error) {
	var e Entry
	if err := json.Unmarshal(payload, &e); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if e.Port != nil {
		if f, ok := e.Port.(float64); !ok || f != math.Trunc(f) {
			return nil, fmt.Errorf("%w: port %v is not an integer", ErrInvalid, e.Port)
		}
		e.Port = e.PortNumber()
	}
	return &e, nil
}
