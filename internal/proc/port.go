package proc

import (
	"fmt"
	"net"
)

// FreePort asks the kernel for a TCP port on 127.0.0.1 that is free right
// now (it is not reserved; see the package Caveats).
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
