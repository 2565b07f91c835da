package resources

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestSelectProvider(t *testing.T) {
	missing := func() error { return errors.New("tool not found in PATH") }
	providers := []Provider{
		{Name: "slow", Priority: 20, Usable: Always},
		{Name: "fast", Priority: 10, Usable: missing},
		{Name: "best", Priority: 5, Usable: missing},
		{Name: "fine", Priority: 15, Usable: Always},
	}
	for _, tc := range []struct {
		name, requested string
		providers       []Provider
		want            string
		wantErr         string
		unusable        bool
	}{
		{"the usable one of lowest priority", "", providers, "fine", "", false},
		{"named and usable", "slow", providers, "slow", "", false},
		{"named but unusable: an error at run time", "fast", providers, "fast", `provider "fast" cannot be used here: tool not found in PATH`, true},
		{"unknown: a manifest error", "nope", providers, "", `unknown provider "nope"; valid providers: slow, fast, best, fine`, false},
		{"none usable says why each is not, by priority", "", providers[1:3], "", "best: tool not found in PATH; fast: tool not found in PATH", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SelectProvider(tc.requested, tc.providers)
			if got != tc.want {
				t.Errorf("selected %q, want %q", got, tc.want)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("error %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			case errors.Is(err, ErrNoSuitableProvider) != tc.unusable:
				t.Fatalf("error %v: ErrNoSuitableProvider %v, want %v", err, !tc.unusable, tc.unusable)
			}
		})
	}
	if err := KnownProvider("", providers); err != nil {
		t.Fatal(err)
	}
	if err := KnownProvider("fast", providers); err != nil {
		t.Fatalf("a known provider that cannot run here is still known: %v", err)
	}
	if err := KnownProvider("nope", providers); err == nil || !strings.Contains(err.Error(), "valid providers: slow, fast") {
		t.Fatalf("unknown provider: %v", err)
	}
}

func TestNeedsCommands(t *testing.T) {
	if err := NeedsCommands("sh")(); err != nil {
		t.Fatal(err)
	}
	if err := NeedsCommands("sh", "ccm-no-such-command")(); err == nil || err.Error() != "ccm-no-such-command not found in PATH" {
		t.Fatalf("error %v", err)
	}
}

func TestUnusableFailsAtRunTime(t *testing.T) {
	why := errors.New("no systemd here")
	r := Unusable(why)
	if _, err := r.Check(t.Context()); !errors.Is(err, why) {
		t.Fatalf("check: %v", err)
	}
	if _, err := r.Apply(t.Context(), Request{}); !errors.Is(err, why) {
		t.Fatalf("apply: %v", err)
	}
	if _, err := Converge(context.WithoutCancel(t.Context()), r, false, false); !errors.Is(err, why) {
		t.Fatalf("converge: %v", err)
	}
}
