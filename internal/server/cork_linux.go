package server

import (
	"net"
	"syscall"
)

// cork holds back the connection's partly filled packets (TCP_CORK) until
// it is closed, so the last bytes written go out in one segment with the
// FIN: a client cannot read them and find the connection still open.
func cork(c net.Conn) {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return // TLS: best effort
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return
	}
	_ = raw.Control(func(fd uintptr) {
		_ = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_CORK, 1)
	})
}
