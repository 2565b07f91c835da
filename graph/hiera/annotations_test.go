package hiera

import (
	"reflect"
	"strings"
	"testing"
)

func TestAnnotationsPass(t *testing.T) {
	tests := []struct {
		name string
		docs []string
		want map[string]any
	}{
		{"upstream's documented example", []string{`
data:
  # The username to run the process as
  # @require
  user: bob

  # @validate isShellSafe(value)
  command: "/usr/bin/thing"

  # @require
  # @validate isIPv4(value)
  listen_address: 10.0.0.1

  # No annotations, no validation
  port: 8080
`}, map[string]any{"user": "bob", "command": "/usr/bin/thing", "listen_address": "10.0.0.1", "port": 8080}},
		{"false and zero are values", []string{"data:\n  # @required\n  tls: false\n  # @require\n  port: 0\n"},
			map[string]any{"tls": false, "port": 0}},
		{"an override satisfies a required base", []string{`
hierarchy: {order: ["env:{{ lookup('facts.env') }}"], merge: deep}
data:
  # @require
  user: ""
overrides:
  env:prod: {user: prod_bob}
`}, map[string]any{"user": "prod_bob"}},
		{"a later layer satisfies it", []string{"data:\n  # @require\n  user:\n", "data: {user: alice}\n"}, map[string]any{"user": "alice"}},
		{"numbers are validated as text", []string{"data:\n  # @validate isInt(value) && is_int(Value)\n  port: 8080\n"}, map[string]any{"port": 8080}},
		{"nil, maps and lists are not validated", []string{
			"data:\n  # @validate isIPv4(value)\n  a:\n  # @validate isIPv4(value)\n  b: {c: 1}\n  # @validate isShellSafe(value)\n  d: [x]\n"},
			map[string]any{"a": nil, "b": map[string]any{"c": 1}, "d": []any{"x"}}},
		{"nested keys", []string{"data:\n  web:\n    # @require\n    # @validate isIP(value)\n    listen: \"::1\"\n"},
			map[string]any{"web": map[string]any{"listen": "::1"}}},
		{"every validator", []string{`
data:
  # @validate isIPv6(value)
  v6: "fe80::1"
  # @validate isFloat(value)
  f: "1.5"
  # @validate isDuration(value) && is_duration("1y2w3d4h") && !isDuration("soon")
  d: 90m
  # @validate isRegex(value, "^[a-z]+$")
  r: abc
  # @validate isShellSafe(value) && is_shellsafe(Value)
  s: plain words
`}, map[string]any{"v6": "fe80::1", "f": "1.5", "d": "90m", "r": "abc", "s": "plain words"}},
		{"other @ words are comments", []string{"data:\n  # @todo tidy up\n  a: 1\n"}, map[string]any{"a": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resolveDocs(t, map[string]any{"env": "prod"}, tt.docs...)
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Resolve = %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestAnnotationsFailWithTheirPosition(t *testing.T) {
	tests := []struct {
		name string
		docs []string
		want []string
	}{
		{"required nil", []string{"data:\n  # @require\n  user:\n"}, []string{`a.yaml:3:3: data key "user" is required (@require) but has no value`}},
		{"required empty", []string{"data:\n  # @require\n  user: \"\"\n"}, []string{`a.yaml:3:3: data key "user" is required`}},
		{"required and missing from a layer's merge", []string{"data: {}\n", "data:\n  # @require\n  token:\n"},
			[]string{`b.yaml:3:3: data key "token" is required`}},
		{"validation refused", []string{"data:\n  # @validate isIPv4(value)\n  addr: not-an-ip\n"},
			[]string{`a.yaml:3:3: data key "addr": @validate isIPv4(value): not-an-ip is not an IPv4 address`}},
		{"validation false", []string{"data:\n  # @validate isInt(value)\n  port: eighty\n"},
			[]string{`a.yaml:3:3: data key "port" failed @validate isInt(value) (value "eighty")`}},
		{"shell-unsafe", []string{"data:\n  # @validate isShellSafe(value)\n  command: \"rm -rf /; bad\"\n"},
			[]string{`a.yaml:3:3: data key "command": @validate isShellSafe(value): may not contain ";"`}},
		{"a bad expression", []string{"data:\n  # @validate isIPv4(\n  addr: x\n"}, []string{`a.yaml:3:3: data key "addr": @validate isIPv4(:`}},
		{"nested", []string{"data:\n  web:\n    # @validate isIPv4(value)\n    listen: nope\n"}, []string{`a.yaml:4:5: data key "web.listen"`}},
		{"every failure at once", []string{"data:\n  # @require\n  user:\n  # @require\n  # @validate isIPv4(value)\n  addr: not-an-ip\n"},
			[]string{`a.yaml:3:3: data key "user"`, `a.yaml:6:3: data key "addr"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := resolveDocs(t, nil, tt.docs...)
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}
