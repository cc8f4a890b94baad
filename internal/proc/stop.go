package proc

import (
	"errors"
	"fmt"
	"syscall"
	"time"
)

// KillWait bounds how long Kill (and Stop after its timeout) waits for the
// process to be reaped after SIGKILL; longer means the process is stuck in
// the kernel (uninterruptible I/O).
const KillWait = 10 * time.Second

// ErrStopTimeout is wrapped by Stop's error when the process did not exit
// within the timeout after SIGTERM and was killed.
var ErrStopTimeout = errors.New("did not exit after SIGTERM")

// Stop sends SIGTERM to the process group and waits up to timeout for the
// process to exit, then sends SIGKILL. It returns an error wrapping
// ErrStopTimeout if the process had to be killed, or the exit error
// (errors.As to *exec.ExitError) if it exited with a non-zero status or a
// signal. Stopping a process that has already exited returns nil (see
// Unexpected).
func (p *Process) Stop(timeout time.Duration) error {
	if p.Exited() {
		return nil
	}
	exited, err := p.signalAndWait(syscall.SIGTERM, timeout)
	if err != nil {
		return err
	}
	if !exited {
		if err := p.Kill(); err != nil {
			return err
		}
		return fmt.Errorf("%s (pid %d) %w within %v; killed", p.name, p.PID(), ErrStopTimeout, timeout)
	}
	if p.err != nil {
		return fmt.Errorf("%s (pid %d) exited after SIGTERM: %w", p.name, p.PID(), p.err)
	}
	return nil
}

// Kill sends SIGKILL to the process group and waits up to KillWait for the
// process to be reaped. Killing a process that has exited returns nil.
func (p *Process) Kill() error {
	if p.Exited() {
		return nil
	}
	exited, err := p.signalAndWait(syscall.SIGKILL, KillWait)
	if err == nil && !exited {
		err = fmt.Errorf("%s (pid %d) still running %v after SIGKILL", p.name, p.PID(), KillWait)
	}
	return err
}

// signalAndWait marks the coming exit as expected, sends sig to the process
// group and waits up to wait for the process to be reaped; it reports
// whether it was.
func (p *Process) signalAndWait(sig syscall.Signal, wait time.Duration) (bool, error) {
	p.expected.Store(true)
	if err := p.signal(sig); err != nil {
		return false, err
	}
	select {
	case <-p.done:
		return true, nil
	case <-time.After(wait):
		return false, nil
	}
}

// signal sends sig to the process group; a group that is already gone is
// not an error.
func (p *Process) signal(sig syscall.Signal) error {
	if err := syscall.Kill(-p.PID(), sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("send %v to %s (pid %d): %w", sig, p.name, p.PID(), err)
	}
	return nil
}
