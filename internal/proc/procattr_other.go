//go:build !linux

package proc

import "syscall"

// procAttr puts the child in its own process group (Pdeathsig is
// Linux-only).
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
