package source

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// answers is a loopback web server whose paths answer what a test set,
// recording the conditional headers each request carried.
type answers struct {
	mu     sync.Mutex
	routes map[string]func(http.ResponseWriter)
	// cond holds each request's If-None-Match and If-Modified-Since.
	cond []string
}

func (a *answers) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cond = append(a.cond, r.Header.Get("If-None-Match")+"|"+r.Header.Get("If-Modified-Since"))
	if f, ok := a.routes[r.URL.Path]; ok {
		f(w)
		return
	}
	http.NotFound(w, r)
}

// serve starts the server and returns an httpSource for path on it.
func serve(t *testing.T, routes map[string]func(http.ResponseWriter)) (*answers, func(path string, signed bool) *httpSource) {
	t.Helper()
	a := &answers{routes: routes}
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	return a, func(path string, signed bool) *httpSource {
		u, err := url.Parse(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		return &httpSource{loc: Location{Scheme: HTTP, URL: u}, client: srv.Client(), max: 8, signed: signed}
	}
}

func body(status int, text string, header ...string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(text))
	}
}

// TestHTTPGetDecides: what each answer of the server makes of a fetch,
// the revision ID chosen from the validators, and the limits.
func TestHTTPGetDecides(t *testing.T) {
	_, src := serve(t, map[string]func(http.ResponseWriter){
		"/etag":        body(200, "a", "ETag", `"e1"`, "Last-Modified", "Mon, 07 Dec 2026 10:00:00 GMT"),
		"/modified":    body(200, "a", "Last-Modified", "Mon, 07 Dec 2026 10:00:00 GMT"),
		"/plain":       body(200, "a"),
		"/exactly-max": body(200, "12345678"),
		"/too-big":     body(200, "123456789"),
		"/gone":        body(http.StatusGone, ""),
		"/broken":      body(http.StatusInternalServerError, "oops"),
		"/moved":       body(http.StatusNotModified, ""),
	})
	cases := []struct {
		path, prev string
		id         string
		err        error
		msg        string
	}{
		{path: "/etag", id: `etag:"e1"`},
		{path: "/modified", id: "last-modified:Mon, 07 Dec 2026 10:00:00 GMT"},
		{path: "/plain", id: "sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"},
		{path: "/plain", prev: "sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb", err: errUnchanged},
		{path: "/exactly-max", id: "sha256:ef797c8118f02dfb649607dd5d3f8c7623048c9c063d532cc95c5ed7a898a64f"},
		{path: "/too-big", msg: "/too-big is more than the 8 bytes allowed"},
		{path: "/missing", err: ErrGone, msg: "/missing answered 404 Not Found"},
		{path: "/gone", err: ErrGone, msg: "/gone answered 410 Gone"},
		{path: "/broken", msg: "/broken answered 500 Internal Server Error"},
		{path: "/moved", err: errUnchanged},
	}
	for _, c := range cases {
		t.Run(c.path+" "+c.prev, func(t *testing.T) {
			b, err := src(c.path, false).get(t.Context(), c.prev)
			switch {
			case c.err == nil && c.msg == "" && err != nil:
				t.Fatalf("err = %v", err)
			case c.err != nil && !errors.Is(err, c.err):
				t.Fatalf("err = %v, want %v", err, c.err)
			case c.msg != "" && (err == nil || !strings.HasSuffix(err.Error(), c.msg)):
				t.Fatalf("err = %v, want one ending %q", err, c.msg)
			case b.id != c.id:
				t.Fatalf("id = %q, want %q", b.id, c.id)
			}
		})
	}
}

// TestHTTPConditionalRequestsComeFromTheID: the revision held names the
// validator sent back, so a poll of an unchanged source moves no body.
func TestHTTPConditionalRequestsComeFromTheID(t *testing.T) {
	a, src := serve(t, map[string]func(http.ResponseWriter){"/b": body(200, "a")})
	for _, prev := range []string{"", `etag:"e1"`, "last-modified:Mon, 07 Dec 2026 10:00:00 GMT", "sha256:00"} {
		if _, err := src("/b", false).get(t.Context(), prev); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"|", `"e1"|`, "|Mon, 07 Dec 2026 10:00:00 GMT", "|"}
	if strings.Join(a.cond, ",") != strings.Join(want, ",") {
		t.Fatalf("conditional headers %q, want %q", a.cond, want)
	}
}

// TestHTTPSignatureIsFetchedBesideTheBundle: a signed source reads
// URL.sig; a missing one is an empty signature (refused later as
// unsigned), a failing one fails the fetch.
func TestHTTPSignatureIsFetchedBesideTheBundle(t *testing.T) {
	_, src := serve(t, map[string]func(http.ResponseWriter){
		"/b.tgz": body(200, "tgz"), "/b.tgz.sig": body(200, "sig"),
		"/u.tgz": body(200, "tgz"),
		"/f.tgz": body(200, "tgz"), "/f.tgz.sig": body(http.StatusBadGateway, ""),
	})
	if b, err := src("/b.tgz", true).get(t.Context(), ""); err != nil || string(b.sig) != "sig" {
		t.Fatalf("signed: sig %q, %v", b.sig, err)
	}
	if b, err := src("/b.tgz", false).get(t.Context(), ""); err != nil || b.sig != nil {
		t.Fatalf("a source that need not be signed fetched %q, %v", b.sig, err)
	}
	if b, err := src("/u.tgz", true).get(t.Context(), ""); err != nil || b.sig != nil || string(b.data) != "tgz" {
		t.Fatalf("no signature: %q %q, %v", b.data, b.sig, err)
	}
	if _, err := src("/f.tgz", true).get(t.Context(), ""); err == nil || !strings.HasSuffix(err.Error(), "/f.tgz.sig answered 502 Bad Gateway") {
		t.Fatalf("a failing signature: %v", err)
	}
}

// TestNoDowngradeRedirects: https may redirect only to https, at most ten
// times, and a policy of the caller's is asked after.
func TestNoDowngradeRedirects(t *testing.T) {
	req := func(raw string) *http.Request {
		r, err := http.NewRequest(http.MethodGet, raw, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	from := req("https://user:pw@example.com/b.tgz")
	vias := func(n int) []*http.Request {
		v := make([]*http.Request, n)
		for i := range v {
			v[i] = from
		}
		return v
	}
	errNext := errors.New("the caller's policy")
	cases := []struct {
		name string
		to   string
		via  int
		next func(*http.Request, []*http.Request) error
		want string
	}{
		{name: "https to https", to: "https://mirror.example.com/b.tgz", via: 1},
		{name: "the ninth hop", to: "https://mirror.example.com/b.tgz", via: 9},
		{name: "the tenth hop", to: "https://mirror.example.com/b.tgz", via: 10, want: "stopped after 10 redirects"},
		{name: "https to http", to: "http://mirror.example.com/b.tgz", via: 1,
			want: "source: untrusted: https://user:xxxxx@example.com/b.tgz redirects to http://mirror.example.com/b.tgz, which is not https (allow with --allow-http)"},
		{name: "the caller's policy", to: "https://mirror.example.com/b.tgz", via: 1,
			next: func(*http.Request, []*http.Request) error { return errNext }, want: errNext.Error()},
		{name: "http before the caller's policy", to: "http://mirror.example.com/b.tgz", via: 1,
			next: func(*http.Request, []*http.Request) error { return nil }, want: "which is not https"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := noDowngrade(c.next)(req(c.to), vias(c.via))
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

// TestOptionsDefaults: what an empty Options becomes, and that the
// redirect check guards a caller's client without changing it.
func TestOptionsDefaults(t *testing.T) {
	mine := &http.Client{}
	o := Options{HTTPClient: mine}.withDefaults()
	if o.HTTPInterval <= 0 || o.ConnectWait <= 0 || o.FetchTimeout <= 0 || o.MaxBytes != 256<<20 || o.Logger == nil {
		t.Fatalf("defaults %+v", o)
	}
	if o.HTTPClient == mine || mine.CheckRedirect != nil || o.HTTPClient.CheckRedirect == nil {
		t.Fatal("the redirect check was not set on a copy of the caller's client")
	}
	if o := (Options{AllowHTTP: true, HTTPClient: mine}).withDefaults(); o.HTTPClient != mine {
		t.Fatal("--allow-http still wraps the client")
	}
}
