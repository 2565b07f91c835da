package release_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/release"
)

func TestParsePlan(t *testing.T) {
	for _, c := range []struct {
		canary, auto string
		keyed        bool
		want         release.Plan
		wantErr      string
	}{
		{"", "", false, release.Plan{}, ""},
		{"10%", "", false, release.Plan{Percent: 10}, ""},
		{"12.5", "", true, release.Plan{Percent: 12.5}, ""},
		{"10%", "20%,5m", true, release.Plan{Percent: 10, Auto: &release.Auto{Step: 20, Wait: 5 * time.Minute}}, ""},
		{"", "20%,5m", false, release.Plan{}, "--auto and --key go with --canary"},
		{"", "", true, release.Plan{}, "--auto and --key go with --canary"},
		{"all", "", false, release.Plan{}, "--canary: a share below 100%; a push without --canary goes to every host"},
		{"0%", "", false, release.Plan{}, "0%"},
		{"10%", "20%", false, release.Plan{}, `--auto "20%": want STEP,WAIT such as 20%,5m`},
	} {
		t.Run(c.canary+" "+c.auto, func(t *testing.T) {
			got, err := release.ParsePlan(c.canary, c.auto, c.keyed)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || !errors.Is(err, release.ErrRefused) {
					t.Fatalf("ParsePlan = %+v, %v; want a refusal saying %q", got, err, c.wantErr)
				}
				return
			}
			if err != nil || got.Percent != c.want.Percent || (got.Auto == nil) != (c.want.Auto == nil) ||
				(got.Auto != nil && (got.Auto.Step != c.want.Auto.Step || got.Auto.Wait != c.want.Auto.Wait)) {
				t.Fatalf("ParsePlan = %+v (auto %+v), %v; want %+v", got, got.Auto, err, c.want)
			}
		})
	}
}

func TestParseAuto(t *testing.T) {
	for _, c := range []struct {
		in   string
		step float64
		wait time.Duration
		ok   bool
	}{
		{"20%,5m", 20, 5 * time.Minute, true},
		{"all,0s", 100, 0, true},
		{"20%", 0, 0, false},
		{"20%,soon", 0, 0, false},
		{"20%,-1m", 0, 0, false},
		{"0%,5m", 0, 0, false},
		{"150%,5m", 0, 0, false},
		{"NaN,5m", 0, 0, false},
	} {
		a, err := release.ParseAuto(c.in)
		if c.ok != (err == nil) || a.Step != c.step || a.Wait != c.wait {
			t.Errorf("ParseAuto(%q) = %+v, %v; want step %v wait %v ok %t", c.in, a, err, c.step, c.wait, c.ok)
		}
		if err != nil && !errors.Is(err, release.ErrRefused) {
			t.Errorf("ParseAuto(%q): %v is not a refusal", c.in, err)
		}
	}
}

func TestPrintHistory(t *testing.T) {
	sign, _ := signer(t)
	sig, _ := sign([]byte("b"))
	at := time.Unix(1_000_000, 0)
	var b bytes.Buffer
	err := release.PrintHistory(&b, []release.Entry{
		{Seq: 1, Digest: "SHA-256=AAAAAAAAAAAAAAAAAAAA", Pushed: at, PushedBy: "ops@a\nforged"},
		{Seq: 2, Digest: "SHA-256=BBBBBBBBBBBBBBBBBBBB", Pushed: at, PushedBy: "ops@b", Signature: string(sig), Current: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	pushed := at.Local().Format(time.DateTime)
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "REVISION  PUSHED") ||
		!strings.HasPrefix(lines[1], "1         "+pushed+"  ops@a\\nforged  AAAAAAAAAAAA  unsigned") ||
		!strings.HasPrefix(lines[2], "2 *       "+pushed+"  ops@b          BBBBBBBBBBBB  signed by ") {
		t.Fatalf("PrintHistory wrote:\n%s", b.String())
	}
}
