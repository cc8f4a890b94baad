package server

import (
	"net"
	"os"
	"syscall"
)

// localAdmin reports whether c is a Unix socket connection from a process
// running as the OS's root or as the server's own user (SO_PEERCRED): such
// a client may log in as root without a password, as MySQL packages'
// auth_socket root account allows ("sudo mysql").
func localAdmin(c net.Conn) bool {
	if w, ok := c.(interface{ Unwrap() net.Conn }); ok {
		c = w.Unwrap()
	}
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return false
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return false
	}
	var cred *syscall.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil || credErr != nil {
		return false
	}
	return cred.Uid == 0 || int(cred.Uid) == os.Geteuid()
}
