package graph

import (
	"fmt"
	"os"
	"strings"

	"github.com/reactive-ccm/ccm/resources/document"
)

// Environ is the process environment templates see (environ), with
// ./.env's variables over it when readDotEnv is set, as upstream's
// --read-env; .env is read under the ownership rule of every file that
// decides what ccm does as root.
func Environ(readDotEnv bool) (map[string]string, error) {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	if !readDotEnv {
		return env, nil
	}
	b, err := document.Read(".env")
	if os.IsNotExist(err) {
		return env, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading .env: %w", err)
	}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf(".env:%d: expected KEY=VALUE, got %q", i+1, line)
		}
		env[strings.TrimSpace(k)] = unquote(strings.TrimSpace(v))
	}
	return env, nil
}

// unquote removes one pair of matching surrounding quotes. Upstream CCM
// keeps the closing quote of KEY="value"; this does not.
func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}
