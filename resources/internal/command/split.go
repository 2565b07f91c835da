package command

import (
	"errors"
	"fmt"

	"github.com/kballard/go-shellquote"
)

// ErrEmpty is returned by Split for a command without words.
var ErrEmpty = errors.New("the command is empty")

// Split turns a command line into the program and its arguments the way
// /bin/sh would split words, but expands nothing and runs no shell: $HOME,
// ;, | and * reach the program as written. It is how every command a
// manifest writes without a shell is read: exec's posix provider, guards,
// health checks, validate and post commands.
func Split(line string) (prog string, args []string, err error) {
	words, err := shellquote.Split(line)
	if err != nil {
		return "", nil, fmt.Errorf("cannot be split into words: %w", err)
	}
	if len(words) == 0 {
		return "", nil, ErrEmpty
	}
	return words[0], words[1:], nil
}
