package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
)

// Spec describes a command to start.
type Spec struct {
	// Name names the process in error messages; default: the base name of
	// Path.
	Name string
	// Path is the executable; Args its arguments (without argv[0]).
	Path string
	Args []string
	// Dir is the working directory; empty means the caller's.
	Dir string
	// Env is the environment; nil means the caller's.
	Env []string
	// LogPath is the file receiving stdout and stderr, created if missing
	// and appended to (restarts on the same log keep earlier runs). Required.
	LogPath string
	// Banner, if not empty, is written to the log before the command
	// starts, as the line "=== Banner: Path [Args]".
	Banner string
}

// Process is one run of a command started by Start. Its methods are safe
// for concurrent use.
type Process struct {
	name    string
	logPath string
	cmd     *exec.Cmd
	done    chan struct{} // closed once cmd has been reaped
	err     error         // cmd.Wait's result; written before done is closed
	// expected is set by Stop and Kill: the exit that follows is ours.
	expected atomic.Bool
}

// Start spawns the command of spec in a new process group and reaps it in
// the background.
func Start(spec Spec) (*Process, error) {
	if spec.Path == "" || spec.LogPath == "" {
		return nil, errors.New("proc: Spec.Path and Spec.LogPath are required")
	}
	name := spec.Name
	if name == "" {
		name = filepath.Base(spec.Path)
	}
	log, err := os.OpenFile(spec.LogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open %s log: %w", name, err)
	}
	// The child holds its own copy of the descriptor.
	defer log.Close()
	if spec.Banner != "" {
		fmt.Fprintf(log, "=== %s: %s %q\n", spec.Banner, spec.Path, spec.Args)
	}
	cmd := exec.Command(spec.Path, spec.Args...)
	cmd.Dir = spec.Dir
	cmd.Env = spec.Env
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &Process{name: name, logPath: spec.LogPath, cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// PID is the process id (also the process group id).
func (p *Process) PID() int { return p.cmd.Process.Pid }

// LogPath is the file receiving the process's output.
func (p *Process) LogPath() string { return p.logPath }

// Done is closed once the process has exited and been reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exited reports whether the process has exited and been reaped.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Err is the exit result (as exec.Cmd.Wait returns it: nil for status 0,
// an *exec.ExitError otherwise); nil while the process runs.
func (p *Process) Err() error {
	if !p.Exited() {
		return nil
	}
	return p.err
}

// Unexpected reports whether the process has exited without Stop or Kill,
// and with what result.
func (p *Process) Unexpected() (bool, error) {
	if !p.Exited() || p.expected.Load() {
		return false, nil
	}
	return true, p.err
}

// exitString describes how the process ended.
func (p *Process) exitString() string {
	if p.err == nil {
		return "exit status 0"
	}
	return p.err.Error()
}
