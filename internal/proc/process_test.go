package proc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStartAndStop(t *testing.T) {
	p, addr := serveHelper(t)
	if err := p.WaitReady(context.Background(), addr, 20*time.Second, nil); err != nil {
		t.Fatal(err)
	}
	if p.PID() <= 0 || p.Exited() || p.Err() != nil {
		t.Fatalf("running process: pid %d, exited %v, err %v", p.PID(), p.Exited(), p.Err())
	}
	if err := p.Stop(10 * time.Second); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if !p.Exited() || p.Err() != nil {
		t.Errorf("after Stop: exited %v, err %v", p.Exited(), p.Err())
	}
	if crashed, err := p.Unexpected(); crashed {
		t.Errorf("Unexpected() = true, %v after Stop", err)
	}
	if err := p.Stop(time.Second); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	if err := p.Kill(); err != nil {
		t.Errorf("Kill after Stop: %v", err)
	}
	log := p.LogTail(1 << 20)
	for _, want := range []string{"=== test: start 1: " + os.Args[0] + ` ["serve"`, "helper listening", "helper stopping"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

func TestLogAppends(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	for i := 0; i < 2; i++ {
		p, err := Start(Spec{Path: os.Args[0], Args: []string{"exit", "0"}, Env: append(os.Environ(), helperEnv+"=1"), LogPath: log})
		if err != nil {
			t.Fatal(err)
		}
		waitExit(t, p)
	}
	if got := strings.Count(Tail(log, 1<<20), "helper starting"); got != 2 {
		t.Errorf("log holds %d runs, want 2:\n%s", got, Tail(log, 1<<20))
	}
}

func TestUnexpectedExit(t *testing.T) {
	p := startHelper(t, "exit", "4")
	waitExit(t, p)
	crashed, err := p.Unexpected()
	if !crashed || err == nil || !strings.Contains(err.Error(), "exit status 4") {
		t.Errorf("Unexpected() = %v, %v; want true, exit status 4", crashed, err)
	}
	if err := p.Stop(time.Second); err != nil {
		t.Errorf("Stop of an exited process: %v", err)
	}
	if crashed, _ := p.Unexpected(); !crashed {
		t.Error("Stop after the exit made it expected")
	}
}

func TestStartErrors(t *testing.T) {
	if _, err := Start(Spec{Path: os.Args[0]}); err == nil {
		t.Error("Start without LogPath succeeded")
	}
	log := filepath.Join(t.TempDir(), "log")
	_, err := Start(Spec{Path: filepath.Join(t.TempDir(), "nope"), LogPath: log})
	if err == nil || !strings.Contains(err.Error(), "start nope") {
		t.Errorf("Start of a missing binary = %v", err)
	}
}
