package bench

import (
	"syscall"
	"testing"
)

func TestRaiseOpenFiles(t *testing.T) {
	var before syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &before); err != nil {
		t.Fatal(err)
	}
	got, err := raiseOpenFiles(64)
	if err != nil || got < 64 || got < before.Cur {
		t.Fatalf("raiseOpenFiles(64) = %d, %v (soft limit was %d)", got, err, before.Cur)
	}
	var after syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &after); err != nil || after.Cur != got {
		t.Errorf("soft limit %d after raising to %d (%v)", after.Cur, got, err)
	}
	// Above the kernel's nr_open even root cannot go.
	if _, err := raiseOpenFiles(after.Max + 1<<40); err == nil {
		t.Error("no error for a need above the hard limit")
	}
}
