// Package command runs external programs for resources: never through a
// shell unless the caller runs one explicitly, with a replaced environment,
// and with a timeout that kills the program's whole process group.
package command

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// DefaultPath is the search path programs run with when none is given.
const DefaultPath = "/usr/bin:/bin:/usr/sbin:/sbin:/usr/local/bin:/usr/local/sbin"

// Cmd describes one program run.
type Cmd struct {
	// Name is the program: an absolute path, or a name looked up in Path.
	Name string
	Args []string
	// Dir is the working directory; "/" when empty.
	Dir string
	// Env is added to the base environment (PATH, LANG=C, LC_ALL=C), as
	// KEY=VALUE entries; later entries win.
	Env []string
	// Path is the colon-separated search path; DefaultPath when empty.
	Path string
	// Timeout bounds the run; when it expires the whole process group is
	// killed. Zero means no bound beyond ctx.
	Timeout time.Duration
	// Stdin is fed to the program when set.
	Stdin io.Reader
	// ExtraFiles are open files the program gets as descriptors 3, 4...
	ExtraFiles []*os.File
	// OnLine, when set, receives each line of stdout and stderr as it is
	// produced, tagged with the stream name.
	OnLine func(stream, line string)
	// Discard keeps no output: Result.Stdout and Result.Stderr stay empty
	// while OnLine still sees every line. For callers that want only the
	// exit code or the lines, so a chatty program costs no memory.
	Discard bool
}

// Result is what a run produced.
type Result struct {
	ExitCode int
	Stdout   []byte
	Stderr   []byte
}

// ErrTimeout is returned when a run was killed because its timeout expired.
var ErrTimeout = errors.New("timed out")

// Run executes c and waits for it. A non-zero exit is not an error: it is
// reported in Result.ExitCode. Errors mean the program could not be started,
// was killed by a signal, or timed out.
func Run(ctx context.Context, c Cmd) (Result, error) {
	path := c.Path
	if path == "" {
		path = DefaultPath
	}
	bin, err := lookPath(c.Name, path)
	if err != nil {
		return Result{ExitCode: -1}, err
	}
	runCtx := ctx
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(runCtx, bin, c.Args...)
	cmd.Dir = c.Dir
	if cmd.Dir == "" {
		cmd.Dir = "/"
	}
	cmd.Env = append([]string{"PATH=" + path, "LANG=C", "LC_ALL=C"}, c.Env...)
	cmd.Stdin = c.Stdin
	cmd.ExtraFiles = c.ExtraFiles
	// A process group of its own lets a timeout kill the program's children
	// too; killing only the direct child leaves grandchildren holding pipes.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second

	var stdout, stderr *bytes.Buffer
	if !c.Discard {
		stdout, stderr = new(bytes.Buffer), new(bytes.Buffer)
	}
	var lines sync.Mutex
	cmd.Stdout = sink(stdout, "stdout", c.OnLine, &lines)
	cmd.Stderr = sink(stderr, "stderr", c.OnLine, &lines)
	err = cmd.Run()
	flush(cmd.Stdout)
	flush(cmd.Stderr)
	res := Result{ExitCode: cmd.ProcessState.ExitCode()}
	if !c.Discard {
		res.Stdout, res.Stderr = stdout.Bytes(), stderr.Bytes()
	}
	if runCtx.Err() != nil && ctx.Err() == nil {
		return res, fmt.Errorf("%s %w after %s; its process group was killed", c.Name, ErrTimeout, c.Timeout)
	}
	if ctx.Err() != nil {
		return res, fmt.Errorf("%s: %w", c.Name, ctx.Err())
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return res, fmt.Errorf("%s killed by signal %s", c.Name, ws.Signal())
		}
		return res, nil
	}
	if err != nil {
		return res, fmt.Errorf("running %s: %w", c.Name, err)
	}
	return res, nil
}

// lookPath finds name in the colon-separated search path, not in this
// process's PATH, so a resource's `path` property is honoured.
func lookPath(name, path string) (string, error) {
	if name == "" {
		return "", errors.New("no command specified")
	}
	if strings.Contains(name, "/") {
		return name, nil
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if _, err := exec.LookPath(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: executable not found in %s", name, path)
}

// maxLine bounds the part of a line held while waiting for its newline: a
// longer line is handed over in pieces of this size, so output without
// newlines cannot grow memory without bound.
const maxLine = 64 << 10

// lineWriter hands complete lines to a callback, keeping the output in
// buf unless buf is nil.
type lineWriter struct {
	buf    *bytes.Buffer
	stream string
	onLine func(stream, line string)
	mu     *sync.Mutex
	part   []byte
}

// sink is where one stream goes: buf, the line callback, both, or, with
// neither, nowhere (os/exec then connects the stream to /dev/null).
func sink(buf *bytes.Buffer, stream string, onLine func(string, string), mu *sync.Mutex) io.Writer {
	switch {
	case onLine != nil:
		return &lineWriter{buf: buf, stream: stream, onLine: onLine, mu: mu}
	case buf != nil:
		return buf
	}
	return nil
}

func (w *lineWriter) Write(p []byte) (int, error) {
	if w.buf != nil {
		w.buf.Write(p)
	}
	w.part = append(w.part, p...)
	rest := w.part
	for {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			break
		}
		w.emit(string(rest[:i]))
		rest = rest[i+1:]
	}
	for len(rest) >= maxLine {
		w.emit(string(rest[:maxLine]))
		rest = rest[maxLine:]
	}
	// Moving the unfinished line to the front reuses the buffer.
	w.part = append(w.part[:0], rest...)
	return len(p), nil
}

func (w *lineWriter) emit(line string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.onLine(w.stream, line)
}

func flush(wr io.Writer) {
	if w, ok := wr.(*lineWriter); ok && len(w.part) > 0 {
		w.emit(string(w.part))
		w.part = nil
	}
}
