//go:build !linux

package server

import "net"

// cork is a no-op where TCP_CORK is not available.
func cork(net.Conn) {}
