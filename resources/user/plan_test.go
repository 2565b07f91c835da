package user

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/accounts"
)

// TestPlan is the user's decision table: the account missing or there,
// wanted present or absent, and which fields differ, to the tool runs
// that follow and the differences a check shows.
func TestPlan(t *testing.T) {
	str := func(s string) *string { return &s }
	num := func(n int) *int { return &n }
	have := &accounts.User{Name: "u", UID: 1000, GID: 1000, Comment: "U", Home: "/home/u", Shell: "/bin/sh", Password: "!", Expiry: -1}
	for _, c := range []struct {
		name  string
		want  user
		have  *accounts.User
		diffs string
		steps string
	}{
		{name: "absent, missing", want: user{absent: true}},
		{name: "absent, there", want: user{absent: true}, have: have, steps: "userdel u"},
		{name: "absent, there, managehome", want: user{absent: true, manageHome: true}, have: have, steps: "userdel --remove u"},
		{name: "missing, nothing set", want: user{}, steps: "useradd --no-create-home u"},
		{name: "missing, everything set",
			want: user{uid: num(5), gid: "staff", groups: []string{"a", "b"}, home: "/srv/u", shell: "/bin/bash", comment: str("C"),
				expiry: num(25568), system: true, manageHome: true, password: str("$6$s$h")},
			steps: "useradd --uid 5 --gid staff --groups a,b --home-dir /srv/u --shell /bin/bash --comment C --expiredate 2040-01-02 --system --create-home u" +
				"\nchpasswd --encrypted <u:$6$s$h"},
		{name: "missing, expiry never", want: user{expiry: num(-1), comment: str("")}, steps: "useradd --comment  --no-create-home u"},
		{name: "there, nothing set", want: user{}, have: have},
		{name: "there, same fields", want: user{home: "/home/u", shell: "/bin/sh", comment: str("U"), password: str("!"), expiry: num(-1)}, have: have},
		{name: "there, fields differ",
			want:  user{home: "/srv/u", shell: "/bin/bash", comment: str(""), expiry: num(25568)},
			have:  have,
			diffs: "home /home/u → /srv/u; shell /bin/sh → /bin/bash; comment U → \"\"; expiry never → 2040-01-02",
			steps: "usermod --home /srv/u --shell /bin/bash --comment  --expiredate 2040-01-02 u"},
		{name: "there, home moved", want: user{home: "/srv/u", manageHome: true}, have: have,
			diffs: "home /home/u → /srv/u", steps: "usermod --home /srv/u --move-home u"},
		{name: "there, expiry to never", want: user{expiry: num(-1)}, have: &accounts.User{Name: "u", Expiry: 25568},
			diffs: "expiry 2040-01-02 → never", steps: "usermod --expiredate  u"},
		{name: "there, password only", want: user{password: str("$6$s$h")}, have: have,
			diffs: "password [redacted] → [redacted]", steps: "chpasswd --encrypted <u:$6$s$h"},
		{name: "there, password and shell", want: user{password: str("$6$s$h"), shell: "/bin/bash"}, have: have,
			diffs: "shell /bin/sh → /bin/bash; password [redacted] → [redacted]",
			steps: "usermod --shell /bin/bash u\nchpasswd --encrypted <u:$6$s$h"},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := c.want
			u.name = "u"
			var diffs []diff
			if c.have != nil && !u.absent {
				diffs = u.compareFields(c.have)
			}
			var got []string
			for _, d := range diffs {
				got = append(got, d.Difference.String())
			}
			if g := strings.Join(got, "; "); g != c.diffs {
				t.Errorf("differences %q, want %q", g, c.diffs)
			}
			var steps []string
			for _, s := range u.plan(c.have, diffs) {
				line := s.Tool + " " + strings.Join(s.Args, " ")
				if s.Stdin != "" {
					line += " <" + strings.TrimSuffix(s.Stdin, "\n")
				}
				steps = append(steps, line)
			}
			if g := strings.Join(steps, "\n"); g != c.steps {
				t.Errorf("steps\n%s\nwant\n%s", g, c.steps)
			}
		})
	}
}

// TestNoopMessage names each step in order, the password as set, never
// its value.
func TestNoopMessage(t *testing.T) {
	pw := "$6$s$h"
	u := &user{name: "u", password: &pw, shell: "/bin/bash", home: "/srv/u"}
	have := &accounts.User{Name: "u", Shell: "/bin/sh", Home: "/home/u"}
	if got, want := accounts.NoopMessage(u.plan(have, u.compareFields(have))), "Would have changed home and shell; set the password"; got != want {
		t.Errorf("noop message %q, want %q", got, want)
	}
}

func TestValidHash(t *testing.T) {
	for h, want := range map[string]bool{
		"$6$salt$hash": true, "$y$j9T$salt$hash": true, "!": true, "!!": true, "*": true, "": true, "!$6$salt$hash": true,
		"hunter22": false, "$6$onlytwo": false, "$6$a$b:c": false, "$6$a$b c": false, "$6$a$b\n": false, "**": false,
	} {
		if got := validHash(h); got != want {
			t.Errorf("validHash(%q) = %v, want %v", h, got, want)
		}
	}
}

// TestExpiry: /etc/shadow's days since 1970 and the dates messages show,
// never as -1.
func TestExpiry(t *testing.T) {
	for _, c := range []struct {
		date string
		days int
	}{{"1970-01-01", 0}, {"2040-01-02", 25568}, {"2000-02-29", 11016}, {Never, -1}} {
		if got := expiryDays(c.date); got != c.days {
			t.Errorf("expiryDays(%q) = %d, want %d", c.date, got, c.days)
		}
		if got := expiryDate(c.days); got != c.date {
			t.Errorf("expiryDate(%d) = %q, want %q", c.days, got, c.date)
		}
	}
	if got := expiryDate(-7); got != Never {
		t.Errorf("expiryDate(-7) = %q", got)
	}
}

func TestPasswordState(t *testing.T) {
	for hash, want := range map[string]string{"": "none", "!": "locked", "!$6$a$b": "locked", "*": "locked", "$6$a$b": "set"} {
		if got := passwordState(hash); got != want {
			t.Errorf("passwordState(%q) = %q, want %q", hash, got, want)
		}
	}
}

// TestRedact: the hash is replaced in what reports show, and a user
// without one gains no password key.
func TestRedact(t *testing.T) {
	p := map[string]any{"password": "$6$a$b", "shell": "/bin/sh"}
	redact(p)
	if p["password"] != "[redacted]" || p["shell"] != "/bin/sh" {
		t.Errorf("redacted %v", p)
	}
	p = map[string]any{"shell": "/bin/sh"}
	if redact(p); len(p) != 1 {
		t.Errorf("redact added %v", p)
	}
}
