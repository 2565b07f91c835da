package exec

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/command"
)

// shell is the only shell anything here ever runs, and only for the shell
// provider.
const shell = "/bin/sh"

// providers are the ways of running a command. posix is chosen unless a
// manifest asks for shell.
var providers = []resources.Provider{
	{Name: "posix", Priority: 1, Usable: resources.Always},
	{Name: "shell", Priority: 99, Usable: shellExists},
}

func shellExists() error {
	if _, err := os.Stat(shell); err != nil {
		return fmt.Errorf("%s is missing", shell)
	}
	return nil
}

// argv turns a command string, the main command's or a guard's, into the
// program to run and its arguments.
type argv func(cmd string) (prog string, args []string, err error)

// argvs maps each provider to how it builds the program's arguments.
var argvs = map[string]argv{"posix": posixArgv, "shell": shellArgv}

// posixArgv splits cmd into words as /bin/sh would, but expands nothing and
// runs no shell: $HOME, ;, | and * reach the program as written.
func posixArgv(cmd string) (string, []string, error) {
	prog, args, err := command.Split(cmd)
	if errors.Is(err, command.ErrEmpty) {
		return "", nil, ErrEmptyCommand
	}
	return prog, args, err
}

// shellArgv hands the whole of cmd to /bin/sh -c.
func shellArgv(cmd string) (string, []string, error) {
	if strings.TrimSpace(cmd) == "" {
		return "", nil, ErrEmptyCommand
	}
	return shell, []string{"-c", cmd}, nil
}
