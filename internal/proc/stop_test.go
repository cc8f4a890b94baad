package proc

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestStopReportsExitStatus(t *testing.T) {
	p, addr := serveHelper(t, "term-exit=3")
	if err := p.WaitReady(context.Background(), addr, 20*time.Second, nil); err != nil {
		t.Fatal(err)
	}
	err := p.Stop(10 * time.Second)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 || errors.Is(err, ErrStopTimeout) {
		t.Errorf("Stop() = %v, want exit status 3", err)
	}
}

func TestStopKillsAfterTimeout(t *testing.T) {
	p, addr := serveHelper(t, "ignore-term")
	if err := p.WaitReady(context.Background(), addr, 20*time.Second, nil); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err := p.Stop(200 * time.Millisecond)
	if !errors.Is(err, ErrStopTimeout) || !strings.Contains(err.Error(), "killed") {
		t.Errorf("Stop() = %v, want ErrStopTimeout", err)
	}
	if !p.Exited() {
		t.Error("process still running after Stop timed out")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Stop took %v", d)
	}
}

func TestKill(t *testing.T) {
	p, addr := serveHelper(t)
	if err := p.WaitReady(context.Background(), addr, 20*time.Second, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	if !p.Exited() || p.Err() == nil || !strings.Contains(p.Err().Error(), "killed") {
		t.Errorf("after Kill: exited %v, err %v", p.Exited(), p.Err())
	}
	if crashed, _ := p.Unexpected(); crashed {
		t.Error("Unexpected() after Kill")
	}
	if dial(context.Background(), addr) == nil {
		t.Error("port still accepts connections after Kill")
	}
}

// TestKillReachesGroup checks that signals go to the whole process group:
// the helper's own child dies with it.
func TestKillReachesGroup(t *testing.T) {
	p, addr := serveHelper(t, "child")
	if err := p.WaitReady(context.Background(), addr, 20*time.Second, nil); err != nil {
		t.Fatal(err)
	}
	child := 0
	for _, line := range strings.Split(p.LogTail(1<<20), "\n") {
		if s, ok := strings.CutPrefix(line, "child "); ok {
			child, _ = strconv.Atoi(s)
		}
	}
	if child <= 0 {
		t.Fatalf("no child pid in the log:\n%s", p.LogTail(1<<20))
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); alive(child); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(child, syscall.SIGKILL)
			t.Fatalf("child %d of the killed process group is still running", child)
		}
	}
}

// alive reports whether pid runs (a zombie waiting for its new parent to
// reap it counts as dead).
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	i := strings.LastIndexByte(string(stat), ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}
