// Package exec is the exec resource: commands run directly (posix
// provider) or through /bin/sh (shell provider), made idempotent by
// creates, onlyif, unless and refreshonly.
package exec
