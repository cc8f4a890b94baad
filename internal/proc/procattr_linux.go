package proc

import "syscall"

// procAttr puts the child in its own process group and makes the kernel
// SIGKILL it if the thread that started it dies, so an aborted run leaves
// no servers behind.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
