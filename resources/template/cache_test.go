package template

import (
	"errors"
	"reflect"
	"testing"
)

// TestBoundedCache: a value is made once per key, an error is not kept,
// and a full cache starts over rather than grow.
func TestBoundedCache(t *testing.T) {
	var c bounded[int, int]
	made := 0
	mk := func(v int) func() (int, error) { return func() (int, error) { made++; return v, nil } }
	for range 3 {
		if v, err := c.get(1, mk(10)); v != 10 || err != nil {
			t.Fatalf("get(1) = %d, %v", v, err)
		}
	}
	if made != 1 {
		t.Fatalf("made %d times, want once", made)
	}
	boom := errors.New("boom")
	if _, err := c.get(2, func() (int, error) { return 0, boom }); !errors.Is(err, boom) {
		t.Fatalf("error %v", err)
	}
	if v, _ := c.get(2, mk(20)); v != 20 {
		t.Fatalf("after an error: %d, want the value made again", v)
	}
	for k := 3; len(c.m) < maxCached; k++ {
		c.get(k, mk(k))
	}
	made = 0
	c.get(-1, mk(-1))
	if len(c.m) != 1 {
		t.Fatalf("a full cache holds %d after one more, want 1", len(c.m))
	}
	if c.get(1, mk(11)); made != 2 {
		t.Fatalf("a key of the old cache was not made again")
	}
}

func TestKVValues(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{"text", "text"},
		{"", ""},
		{"  ", "  "},
		{` {"a": [1, 2.5]} `, map[string]any{"a": []any{1, 2.5}}},
		{"\n[\"x\"]\n", []any{"x"}},
		{"{not json", "{not json"},
		{"[1, 2", "[1, 2"},
		{"42", "42"},
		{`"quoted"`, `"quoted"`},
	}
	for _, tt := range tests {
		if got := kvValue([]byte(tt.in)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("kvValue(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

// failingKV fails every Get.
type failingKV struct{}

func (failingKV) Get(string, string) ([]byte, bool, error) {
	return nil, false, errors.New("nats: timeout")
}
func (failingKV) Fingerprint() string { return "" }

func TestKVGetFailures(t *testing.T) {
	tests := []struct {
		env  Env
		in   string
		want string
	}{
		{Env{KV: failingKV{}}, "{{ kvGet('cfg', 'motd', 'unused') }}", `template {{ kvGet('cfg', 'motd', 'unused') }}: kvGet(…, …): nats: timeout`},
		{Env{KV: fakeKV{}}, "{{ kvGet('cfg', 'motd') }}", "template {{ kvGet('cfg', 'motd') }}: kvGet: no such key; give a default: kvGet(BUCKET, KEY, DEFAULT)"},
		{Env{KV: fakeKV{}}, "{{ kvGet('cfg', 1) }}", "template {{ kvGet('cfg', 1) }}: bad arguments: kvGet: the key must be a string, got int"},
		{Env{KV: fakeKV{}}, "{{ kvGet(1, 'k') }}", "template {{ kvGet(1, 'k') }}: bad arguments: kvGet: the bucket must be a string, got int"},
		{Env{}, "{{ kvGet('cfg', 'motd', 'd') }}", "template {{ kvGet('cfg', 'motd', 'd') }}: kvGet: no NATS key-value access here"},
	}
	for _, tt := range tests {
		_, err := New(tt.env).String(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("error %v\nwant  %q", err, tt.want)
		}
	}
}
