package resourcetest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// fileAttack runs the attack steps on file content:
//   - "copy SRC DST" writes the content of SRC to DST (a crafted file).
//   - "tamper DIR" writes into every file below DIR that Nobody can open
//     for writing, and prints their paths, one a line.
//   - "append FILE TEXT" appends TEXT to FILE.
//   - "rewrite FILE A B" rewrites FILE in place, without truncating it,
//     with the content of A, then of B, again and again until SIGTERM,
//     opening FILE by its path each time; then prints how many rewrites.
func fileAttack(op string, args []string) error {
	switch {
	case op == "copy" && len(args) == 2:
		b, err := os.ReadFile(args[0])
		if err != nil {
			return err
		}
		return os.WriteFile(args[1], b, 0o644)
	case op == "tamper" && len(args) == 1:
		return tamper(args[0])
	case op == "rewrite" && len(args) == 3:
		return rewrite(args[0], args[1], args[2])
	case op == "append" && len(args) == 2:
		return appendTo(args[0], args[1])
	}
	return fmt.Errorf("unknown attack %s %v", op, args)
}

// tamper writes into every file below dir it can open for writing.
func tamper(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			// What Nobody cannot enter is what it cannot tamper with.
			return nil
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil
		}
		defer f.Close()
		if _, err := f.WriteAt([]byte("tampered"), 0); err == nil {
			fmt.Println(path)
		}
		return nil
	})
}

// rewrite puts the content of a, then of b, in file, in place, until
// SIGTERM.
func rewrite(file, a, b string) error {
	contents := make([][]byte, 2)
	for i, p := range []string{a, b} {
		var err error
		if contents[i], err = os.ReadFile(p); err != nil {
			return err
		}
	}
	n := 0
	return untilTerm(func() (bool, error) {
		f, err := os.OpenFile(file, os.O_WRONLY, 0)
		if err != nil {
			// The code under attack replaces the file: not there, or
			// not ours, for an instant.
			return false, nil
		}
		_, err = f.WriteAt(contents[n%2], 0)
		f.Close()
		n++
		return err == nil, err
	})
}

// appendTo appends text to the file at path, which must exist.
func appendTo(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	return errors.Join(err, f.Close())
}
