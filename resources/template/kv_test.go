package template

import (
	"errors"
	"reflect"
	"testing"
)

// fakeKV is a map of bucket/key to value.
type fakeKV map[string]string

func (f fakeKV) Get(bucket, key string) ([]byte, bool, error) {
	v, ok := f[bucket+"/"+key]
	return []byte(v), ok, nil
}

func (f fakeKV) Fingerprint() string { return f["fp"] }

func TestKVGet(t *testing.T) {
	kv := fakeKV{"cfg/motd": "hello", "cfg/web": `{"port": 8080, "hosts": ["a", "b"], "ratio": 0.5}`, "cfg/num": "42", "fp": "1"}
	tm := New(Env{KV: kv})
	for _, c := range []struct {
		name, src string
		want      any
		err       error
	}{
		{"text", "{{ kvGet('cfg', 'motd') }}", "hello", nil},
		{"JSON object", "{{ kvGet('cfg', 'web').port }}", 8080, nil},
		{"JSON list", "{{ kvGet('cfg', 'web').hosts[1] }}", "b", nil},
		{"float", "{{ kvGet('cfg', 'web').ratio }}", 0.5, nil},
		{"a number stays text", "{{ kvGet('cfg', 'num') }}", "42", nil},
		{"default", "{{ kvGet('cfg', 'nope', 'dflt') }}", "dflt", nil},
		{"a default unused", "{{ kvGet('cfg', 'motd', 'dflt') }}", "hello", nil},
		{"missing", "{{ kvGet('cfg', 'nope') }}", nil, ErrMissingKV},
		{"arguments", "{{ kvGet('cfg') }}", nil, ErrArgs},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := tm.Value(c.src)
			if !errors.Is(err, c.err) {
				t.Fatalf("err = %v, want %v", err, c.err)
			}
			if c.err == nil && !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %#v, want %#v", got, c.want)
			}
		})
	}
	if _, err := New(Env{}).Value("{{ kvGet('cfg', 'motd') }}"); !errors.Is(err, ErrNoKV) {
		t.Fatalf("without KV: %v", err)
	}
	if _, err := NewData(Env{KV: kv}).Value("{{ kvGet('cfg', 'motd') }}"); err == nil {
		t.Fatal("kvGet is offered to hiera data, where upstream restricts functions to lookup")
	}
	before := New(Env{KV: kv}).Fingerprint()
	kv["fp"] = "2"
	if New(Env{KV: kv}).Fingerprint() == before {
		t.Fatal("the fingerprint ignores the key-value entries")
	}
}
