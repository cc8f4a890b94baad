package stress

import "syscall"

// procAttr makes the kernel SIGKILL the server if the thread that started it
// dies, so an aborted run leaves no server behind.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
