package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
)

// parseAuto reads push --auto STEP,WAIT ("20%,5m").
func parseAuto(s string) (release.Auto, error) {
	step, wait, ok := strings.Cut(s, ",")
	p, err := release.ParseShare(step)
	if err != nil || !ok {
		return release.Auto{}, usage(fmt.Errorf("--auto %q: want STEP,WAIT such as 20%%,5m", s))
	}
	d, err := time.ParseDuration(wait)
	if err != nil || d < 0 {
		return release.Auto{}, usage(fmt.Errorf("--auto %q: want STEP,WAIT such as 20%%,5m", s))
	}
	return release.Auto{Step: p, Wait: d}, nil
}

// followAuto runs a's plan on the rollout r of o, judging its wave by the
// fleet's status and saying each step on out.
func followAuto(ctx context.Context, a release.Auto, c *natsconn.Conn, o release.Object, r *release.Rollout, out io.Writer) error {
	a.Widened = func(p float64) { sayWidened(out, o, r, p) }
	return a.Run(ctx, o, r, func(ctx context.Context) (release.WaveHealth, error) {
		hosts, err := report.ReadWave(ctx, c, o.Name, *r)
		return report.WaveHealth(hosts), err
	})
}
