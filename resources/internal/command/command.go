// Package command runs external programs for resources: never through a
// shell unless the caller runs one explicitly, with a replaced environment,
// and with a timeout that stops the program's whole process group: SIGTERM
// first, so it may clean up, then SIGKILL after a grace period.
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

// DefaultGrace is how long a program stopped by its timeout (or its
// context) has to exit after SIGTERM before its process group gets
// SIGKILL, when Cmd.Grace is zero.
const DefaultGrace = 5 * time.Second

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
	// Timeout bounds the run; when it expires (or ctx ends) the whole
	// process group gets SIGTERM, then SIGKILL if it has not exited after
	// Grace. Zero means no bound beyond ctx.
	Timeout time.Duration
	// Grace is how long the program has to exit after SIGTERM;
	// DefaultGrace when zero.
	Grace time.Duration
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
	// MaxOutput, when positive, keeps at most this many bytes of each of
	// stdout and stderr; the rest is read and dropped, so a program that
	// prints without end costs no memory (Result.Truncated says so).
	MaxOutput int
}

// Result is what a run produced.
type Result struct {
	ExitCode int
	Stdout   []byte
	Stderr   []byte
	// Truncated is set when MaxOutput dropped output.
	Truncated bool
}

// ErrTimeout is returned when a run was stopped because its timeout expired.
var ErrTimeout = errors.New("timed out")

// Run executes c and waits for it. A non-zero exit is not an error: it is
// reported in Result.ExitCode. Errors mean the program could not be started,
// was killed by a signal, or was stopped by its timeout or ctx; then the
// error says whether it exited on SIGTERM within the grace period or was
// killed with SIGKILL after it.
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
	// A process group of its own lets a timeout stop the program's
	// children too; stopping only the direct child leaves grandchildren
	// holding pipes.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stop := newStopper(c.Grace)
	defer stop.done()
	cmd.Cancel = func() error { return stop.start(cmd.Process.Pid) }
	// The streams stay open while a grandchild holds them: give up on
	// them a little after the group was killed.
	cmd.WaitDelay = stop.grace + 2*time.Second

	out := newOutput(c)
	cmd.Stdout, cmd.Stderr = out.stdout, out.stderr
	err = cmd.Run()
	res := out.result(cmd.ProcessState.ExitCode())
	if runCtx.Err() != nil && ctx.Err() == nil {
		return res, fmt.Errorf("%s %w after %s; %s", c.Name, ErrTimeout, c.Timeout, stop.outcome())
	}
	if ctx.Err() != nil {
		return res, fmt.Errorf("%s: %w; %s", c.Name, ctx.Err(), stop.outcome())
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

// output collects what a run prints, as Cmd asks.
type output struct {
	stdout, stderr io.Writer
	bufs           [2]*capped
	lines          sync.Mutex
}

func newOutput(c Cmd) *output {
	o := &output{}
	if !c.Discard {
		o.bufs = [2]*capped{{max: c.MaxOutput}, {max: c.MaxOutput}}
	}
	o.stdout = o.sink(o.bufs[0], "stdout", c.OnLine)
	o.stderr = o.sink(o.bufs[1], "stderr", c.OnLine)
	return o
}

// sink is where one stream goes: buf, the line callback, both, or, with
// neither, nowhere (os/exec then connects the stream to /dev/null).
func (o *output) sink(buf *capped, stream string, onLine func(string, string)) io.Writer {
	switch {
	case onLine != nil:
		w := &lineWriter{stream: stream, onLine: onLine, mu: &o.lines}
		if buf != nil {
			w.buf = buf
		}
		return w
	case buf != nil:
		return buf
	}
	return nil
}

// result hands over the output kept, once the run is over.
func (o *output) result(code int) Result {
	flush(o.stdout)
	flush(o.stderr)
	res := Result{ExitCode: code}
	if o.bufs[0] != nil {
		res.Stdout, res.Stderr = o.bufs[0].Bytes(), o.bufs[1].Bytes()
		res.Truncated = o.bufs[0].dropped || o.bufs[1].dropped
	}
	return res
}

// capped keeps what is written to it up to max bytes (all when max is
// zero) and drops the rest, still taking it, so the program never blocks.
// It holds its buffer rather than embed it: a bytes.Buffer's ReadFrom
// would let io.Copy fill it past max.
type capped struct {
	buf     bytes.Buffer
	max     int
	dropped bool
}

func (c *capped) Write(p []byte) (int, error) {
	keep := p
	if c.max > 0 && c.buf.Len()+len(p) > c.max {
		keep = p[:max(0, c.max-c.buf.Len())]
		c.dropped = true
	}
	c.buf.Write(keep)
	return len(p), nil
}

// Bytes returns what was kept.
func (c *capped) Bytes() []byte { return c.buf.Bytes() }

// lineWriter hands complete lines to a callback, keeping the output in
// buf unless buf is nil.
type lineWriter struct {
	buf    io.Writer
	stream string
	onLine func(stream, line string)
	mu     *sync.Mutex
	part   []byte
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
