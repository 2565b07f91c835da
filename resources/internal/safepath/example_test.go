package safepath_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/reactive-ccm/ccm/resources/internal/safepath"
)

// Example opens a directory as root opens one another user may control,
// replaces a file in it atomically, and refuses a symlink planted below
// it: every step acts on the directory's descriptor, never on the path
// string again.
func Example() {
	base, err := os.MkdirTemp("", "safepath-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(base)
	if err := os.Mkdir(filepath.Join(base, "real"), 0o755); err != nil {
		panic(err)
	}
	if err := os.Symlink(filepath.Join(base, "real"), filepath.Join(base, "planted")); err != nil {
		panic(err)
	}

	dir, err := safepath.Policy{}.OpenDir(base)
	if err != nil {
		panic(err)
	}
	defer dir.Close()
	// A temporary file beside the target, renamed over it once written.
	tmp, _, err := dir.WriteTemp("motd", 0o644, strings.NewReader("hello\n"))
	if err != nil {
		panic(err)
	}
	if err := tmp.Commit(); err != nil {
		panic(err)
	}
	b, err := os.ReadFile(filepath.Join(base, "motd"))
	fmt.Printf("motd: %q, %v\n", b, err)
	// Below an open directory no symlink is followed, whoever owns it.
	_, err = dir.OpenDir("planted")
	fmt.Println("planted:", strings.ReplaceAll(fmt.Sprint(err), base, "BASE"), errors.Is(err, safepath.ErrSymlink))
	_, err = dir.OpenDir("real")
	fmt.Println("real:", err)
	// Output:
	// motd: "hello\n", <nil>
	// planted: refusing to follow symlink BASE/planted -> BASE/real (links below a directory ccm manages are never followed) true
	// real: <nil>
}
