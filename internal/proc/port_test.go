package proc

import (
	"net"
	"strconv"
	"testing"
)

func TestFreePort(t *testing.T) {
	port, err := FreePort()
	if err != nil || port <= 0 {
		t.Fatalf("FreePort() = %d, %v", port, err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:"+itoa(port))
	if err != nil {
		t.Fatalf("the free port %d cannot be listened on: %v", port, err)
	}
	_ = l.Close()
}

func itoa(n int) string { return strconv.Itoa(n) }
