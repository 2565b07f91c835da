package archive

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// Secrets used by the tests; none may appear in any error or message.
const (
	secretPassword = "s3cret-pass-91"
	secretURLUser  = "urluser-73"
	secretURLPass  = "urlpass-55"
	secretHeader   = "tok-secret-28"
	secretQuery    = "sig-secret-64"
)

var secrets = []string{secretPassword, secretURLUser, secretURLPass, secretHeader, secretQuery}

func assertNoSecrets(t *testing.T, what, text string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Errorf("%s reveals %q: %s", what, s, text)
		}
	}
}

func TestBasicAuthAndHeadersAreSent(t *testing.T) {
	body := fixture(t, "tar", fixtureFiles)
	for _, tc := range []struct {
		desc, url string
		props     []string
		check     func(*http.Request) int
	}{
		{
			desc:  "username and password properties",
			props: []string{"username: deploy", "password: " + secretPassword},
			check: wantAuth("deploy", secretPassword),
		},
		{
			desc:  "URL userinfo",
			url:   secretURLUser + ":" + secretURLPass + "@",
			check: wantAuth(secretURLUser, secretURLPass),
		},
		{
			desc:  "properties win over URL userinfo",
			url:   secretURLUser + ":" + secretURLPass + "@",
			props: []string{"username: deploy", "password: " + secretPassword},
			check: wantAuth("deploy", secretPassword),
		},
		{
			desc:  "custom headers",
			props: []string{"headers:", "  Authorization: Bearer " + secretHeader, "  X-Release: stable"},
			check: func(r *http.Request) int {
				if r.Header.Get("Authorization") != "Bearer "+secretHeader || r.Header.Get("X-Release") != "stable" {
					return http.StatusForbidden
				}
				return 0
			},
		},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			srv := serve(t, body, tc.check)
			name := filepath.Join(t.TempDir(), "app.tar")
			u := strings.Replace(srv.URL, "http://", "http://"+tc.url, 1) + "/app.tar"
			a := buildArchive(t, name, strings.Join(append([]string{"url: " + u}, tc.props...), "\n"))
			resourcetest.Converge(t.Context(), t, a, false, false)
			if _, err := os.Stat(name); err != nil {
				t.Error(err)
			}
		})
	}
}

func wantAuth(user, pass string) func(*http.Request) int {
	return func(r *http.Request) int {
		if u, p, ok := r.BasicAuth(); !ok || u != user || p != pass {
			return http.StatusUnauthorized
		}
		return 0
	}
}

func TestSecretsNeverAppearInErrors(t *testing.T) {
	body := fixture(t, "tar", fixtureFiles)
	refuse := serve(t, body, func(*http.Request) int { return http.StatusInternalServerError })
	ok := serve(t, body, nil)
	hang := hangingServer(t)
	for _, tc := range []struct {
		desc, base string
		extra      []string
		tune       func(*archive)
		want       error
	}{
		{desc: "server error", base: refuse.URL, want: ErrDownload},
		{desc: "connection refused", base: "http://127.0.0.1:1", want: ErrDownload},
		{desc: "checksum mismatch", base: ok.URL, extra: []string{"checksum: " + sum([]byte("x"))}, want: ErrChecksumMismatch},
		{desc: "stalled download", base: hang.URL, tune: func(a *archive) { a.stallTimeout = 100 * time.Millisecond }, want: ErrStalled},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			u := strings.Replace(tc.base, "http://", "http://"+secretURLUser+":"+secretURLPass+"@", 1) + "/app.tar?sig=" + secretQuery
			props := append([]string{
				"url: " + u, "username: deploy", "password: " + secretPassword,
				"headers: {X-Token: " + secretHeader + "}",
			}, tc.extra...)
			dir := t.TempDir()
			a := buildArchive(t, filepath.Join(dir, "app.tar"), strings.Join(props, "\n"))
			if tc.tune != nil {
				tc.tune(a)
			}
			out, err := resources.Converge(t.Context(), a, false, false)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			assertNoSecrets(t, "the error", err.Error())
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("a failed download left %v", left)
			}
			assertNoSecrets(t, "the reason", out.Before.Reason())
			noop, _ := resources.Converge(t.Context(), a, false, true)
			assertNoSecrets(t, "the noop message", noop.Change.NoopMessage)
		})
	}
}

// hangingServer sends headers and a little of the body, then nothing.
func hangingServer(t *testing.T) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("partial"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(s.Close)
	return s
}

func TestValidationErrorsDoNotEchoCredentials(t *testing.T) {
	u := fmt.Sprintf("ftp://%s:%s@example.com/app.zip?sig=%s", secretURLUser, secretURLPass, secretQuery)
	_, err := resourcetest.Build(t, "archive", "/tmp/app.tar.gz", "url: "+u+"\nowner: root\ngroup: root", t.TempDir())
	if err == nil {
		t.Fatal("an ftp URL with the wrong kind of archive was accepted")
	}
	assertNoSecrets(t, "the validation error", err.Error())
}

func TestDownloadFailuresSayWhatToDo(t *testing.T) {
	body := fixture(t, "zip", fixtureFiles)
	missing := serve(t, body, func(*http.Request) int { return http.StatusNotFound })
	ok := serve(t, body, nil)
	for _, tc := range []struct {
		desc, url, name, want string
	}{
		{desc: "not found", url: missing.URL + "/app.zip", name: filepath.Join(t.TempDir(), "app.zip"), want: "HTTP 404 Not Found"},
		{desc: "missing directory", url: ok.URL + "/app.zip", name: filepath.Join(t.TempDir(), "nope", "app.zip"), want: "does not exist; create it first"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			a := buildArchive(t, tc.name, "url: "+tc.url)
			_, err := resources.Converge(t.Context(), a, false, false)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want it to say %q", err, tc.want)
			}
		})
	}
}

func TestHeadersAreNotSentToAnotherHostOnRedirect(t *testing.T) {
	body := fixture(t, "zip", fixtureFiles)
	var leaked []string
	var mu sync.Mutex
	other := serve(t, body, func(r *http.Request) int {
		mu.Lock()
		defer mu.Unlock()
		for _, h := range []string{"X-Token", "Authorization"} {
			if r.Header.Get(h) != "" {
				leaked = append(leaked, h)
			}
		}
		return 0
	})
	origin := httptest.NewServer(http.RedirectHandler(other.URL+"/app.zip", http.StatusFound))
	t.Cleanup(origin.Close)
	name := filepath.Join(t.TempDir(), "app.zip")
	a := buildArchive(t, name, strings.Join([]string{
		"url: " + origin.URL + "/app.zip", "username: deploy", "password: " + secretPassword,
		"headers: {X-Token: " + secretHeader + "}",
	}, "\n"))
	resourcetest.Converge(t.Context(), t, a, false, false)
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) > 0 {
		t.Errorf("sent %v to the redirect's host", leaked)
	}
	if other.hits.Load() != 1 {
		t.Error("the redirect was not followed")
	}
}
