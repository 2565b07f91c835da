package sysctl

import "errors"

// ErrNoKey is returned for a parameter the running kernel does not have
// (a module not loaded, a typo, an interface that does not exist).
var ErrNoKey = errors.New("no such kernel parameter")
