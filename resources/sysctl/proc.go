package sysctl

import (
	"errors"
	"fmt"
	"io"

	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"golang.org/x/sys/unix"
)

// maxValue bounds a parameter's value as read.
const maxValue = 64 << 10

// open opens the file of parameter key under /proc/sys with flags.
func open(key string, flags int) (*safepath.File, error) {
	dir, base, err := safepath.Policy{}.OpenParent(procPath(key))
	if err == nil {
		defer dir.Close()
		var f *safepath.File
		if f, err = dir.Open(base, flags); err == nil {
			return f, nil
		}
	}
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
		return nil, fmt.Errorf("%w %s (%s does not exist: a module not loaded, or a misspelt name)", ErrNoKey, key, procPath(key))
	}
	return nil, err
}

// read returns the parameter's value, normalized.
func read(key string) (string, error) {
	f, err := open(key, unix.O_RDONLY)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxValue))
	if err != nil {
		return "", err
	}
	return normalize(string(b)), nil
}

// write sets the parameter to value, in one write as the kernel wants.
func write(key, value string) error {
	f, err := open(key, unix.O_WRONLY)
	if err != nil {
		return err
	}
	_, err = f.Write([]byte(value + "\n"))
	if errors.Is(err, unix.EINVAL) {
		err = fmt.Errorf("the kernel refused %q for %s: %w", value, key, err)
	}
	return errors.Join(err, f.Close())
}
