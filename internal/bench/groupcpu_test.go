package bench

import (
	"os"
	"syscall"
	"testing"
)

func TestParseProcStatGroupCPU(t *testing.T) {
	stat := []byte("4242 (ruby (puma) 1) S 4200 4200 4200 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 3 0 1000 1000 100")
	g, cpu, err := parseProcStatGroupCPU(stat)
	if err != nil || g != 4200 || cpu != 3 {
		t.Errorf("group %d cpu %v err %v, want 4200 and 3 s", g, cpu, err)
	}
	if _, _, err := parseProcStatGroupCPU([]byte("12 (x) S 1")); err == nil {
		t.Error("short stat accepted")
	}
}

func TestGroupCPU(t *testing.T) {
	pg := syscall.Getpgrp()
	if _, err := GroupCPU(pg); err != nil { // this test's own group
		t.Errorf("own process group %d: %v", pg, err)
	}
	if _, err := GroupCPU(-os.Getpid()); err == nil {
		t.Error("a group without processes gave a figure")
	}
}
