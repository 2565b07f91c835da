package sysctl

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/resources"
)

// DefaultPoll is how often a parameter is read when poll_interval is not
// set: procfs sends no inotify events.
const DefaultPoll = 2 * time.Second

// minPoll bounds poll_interval from below.
const minPoll = 10 * time.Millisecond

// props are the sysctl resource's manifest properties.
type props struct {
	Value        string `yaml:"value" help:"the value; several words (a port range) separated by spaces" cli:"arg=1"`
	Persist      bool   `yaml:"persist" help:"also write the value to /etc/sysctl.d/zz-ccm-KEY.conf, so it is applied at boot"`
	PollInterval string `yaml:"poll_interval" help:"how often watch mode reads the parameter (procfs sends no events): a duration, default 2s; ccm's --poll overrides it"`
}

// validKey is a parameter's name: dotted words, a word holding letters,
// digits and _ - @ : + or a / standing for a dot in the file's name (an
// interface eth0.100 is net.ipv4.conf.eth0/100.rp_filter, as sysctl(8)
// writes it).
var validKey = regexp.MustCompile(`^[A-Za-z0-9_@:+-]+(/[A-Za-z0-9_@:+-]+)*(\.[A-Za-z0-9_@:+-]+(/[A-Za-z0-9_@:+-]+)*)*$`)

// checkKey says why key is not a parameter's name, for a manifest and for
// `ccm status`.
func checkKey(key string) error {
	if !validKey.MatchString(key) {
		return fmt.Errorf("%q is not a kernel parameter's name (dotted words, as net.ipv4.ip_forward)", key)
	}
	return nil
}

// validate reports every problem with the properties and returns the
// poll interval.
func validate(spec *resources.Spec, p *props, errs *resources.ErrorList) time.Duration {
	if err := checkKey(spec.Name); err != nil {
		errs.Addf(spec.Pos, "%s: %v", spec.ID(), err)
	}
	switch {
	case !spec.Has("value"):
		errs.Addf(spec.Pos, "%s: value is required", spec.ID())
	case strings.ContainsAny(p.Value, "\n\r"):
		errs.Addf(spec.KeyPos("value"), "value: must be one line")
	}
	if !spec.Has("poll_interval") {
		return DefaultPoll
	}
	d, err := time.ParseDuration(p.PollInterval)
	switch {
	case err != nil:
		errs.Addf(spec.KeyPos("poll_interval"), "poll_interval: %q is not a duration (2s, 500ms)", p.PollInterval)
	case d < minPoll:
		errs.Addf(spec.KeyPos("poll_interval"), "poll_interval: %s is shorter than %s", d, minPoll)
	}
	return d
}

// normalize is a value as the kernel compares it: its words joined by
// single spaces.
func normalize(v string) string {
	return strings.Join(strings.Fields(v), " ")
}

// procPath is the file of parameter key under /proc/sys: dots separate
// directories, a slash stands for a dot within one.
func procPath(key string) string {
	return "/proc/sys/" + strings.Map(func(r rune) rune {
		switch r {
		case '.':
			return '/'
		case '/':
			return '.'
		}
		return r
	}, key)
}
