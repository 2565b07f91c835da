package apt

import (
	"context"
	"fmt"
	"strings"

	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

// candidate returns the version apt would install for name, "" when apt
// knows none (an unknown package, or "Candidate: (none)").
func (p *Provider) candidate(ctx context.Context, name string) (string, error) {
	c, res, err := p.run(ctx, queryTimeout, "apt-cache", "policy", name)
	if err != nil {
		return "", fmt.Errorf("asking apt for the candidate of %s: %w", name, err)
	}
	if res.ExitCode != 0 {
		return "", manager.CommandFailed(c, res)
	}
	return parseCandidate(string(res.Stdout)), nil
}

func parseCandidate(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "Candidate:"); ok {
			if v = strings.TrimSpace(v); v != "(none)" {
				return v
			}
			return ""
		}
	}
	return ""
}

// Newer returns apt's candidate for name when it is newer than installed.
func (p *Provider) Newer(ctx context.Context, name, installed string) (string, error) {
	cand, err := p.candidate(ctx, name)
	if err != nil || cand == "" {
		return "", err
	}
	cmp, err := CompareVersions(cand, installed)
	if err != nil || cmp <= 0 {
		return "", err
	}
	return cand, nil
}
