package archive

import (
	"net/url"
	"testing"
)

// A short credential (?dl=1, a one-letter password) would cut up every
// path and number holding its characters; longer ones, the whole query
// and the whole userinfo are still cut out.
func TestRedactorLeavesShortValuesInText(t *testing.T) {
	u, err := url.Parse("https://u:longpass1@example.com/app.tar.gz?dl=1&sig=s3cret-sig")
	if err != nil {
		t.Fatal(err)
	}
	r := newRedactor(u, "p", map[string]string{"X-Debug": "1", "Authorization": "Bearer tok-123"})
	for in, want := range map[string]string{
		"creates absent → present (/opt/app/bin/app): exit code 1":   "creates absent → present (/opt/app/bin/app): exit code 1",
		`Get "https://example.com/app.tar.gz?dl=1&sig=s3cret-sig"`:   `Get "https://example.com/app.tar.gz?[redacted]"`,
		"sig s3cret-sig, auth Bearer tok-123, user u:longpass1 here": "sig [redacted], auth [redacted], user [redacted] here",
		"password longpass1": "password [redacted]",
	} {
		if got := r.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}
