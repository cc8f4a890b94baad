package bench

import (
	"io"
	"net"
	"testing"
	"time"
)

// TestProxyConnTiming drives the per-connection accounting with explicit
// times: a command's time runs from its arrival to the last response
// bytes; bytes before any command (the greeting) count nothing.
func TestProxyConnTiming(t *testing.T) {
	var pc proxyConn
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	if d := pc.serverSent(at(0)); d != 0 {
		t.Errorf("greeting counted %v", d)
	}
	if !pc.clientSent(at(10)) {
		t.Error("first command not new")
	}
	if pc.clientSent(at(11)) {
		t.Error("second read of the same command counted as a new one")
	}
	total := pc.serverSent(at(15)) + pc.serverSent(at(18)) // 4 ms + 3 ms
	if total != 7*time.Millisecond {
		t.Errorf("command time %v, want 7ms", total)
	}
	pc.responded()
	if d := pc.serverSent(at(30)); d != 0 {
		t.Errorf("bytes after the response counted %v", d)
	}
	if !pc.clientSent(at(40)) {
		t.Error("command after a response not new")
	}
	if d := pc.serverSent(at(45)); d != 5*time.Millisecond {
		t.Errorf("second command %v, want 5ms", d)
	}
}

// TestDBProxy runs a fake request/response server behind the proxy: the
// proxy forwards bytes unchanged, counts the commands and measures at
// least each response's delay, and never more than the commands' wall
// time.
func TestDBProxy(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	const delay = 20 * time.Millisecond
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		time.Sleep(delay) // a slow greeting is not database time
		c.Write([]byte("hello"))
		buf := make([]byte, 1)
		for {
			if _, err := io.ReadFull(c, buf); err != nil {
				return
			}
			time.Sleep(delay)
			c.Write([]byte{buf[0], '-'})
			time.Sleep(delay / 2)
			c.Write([]byte{'!'})
		}
	}()
	p, err := newDBProxy(ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	greet := make([]byte, 5)
	if _, err := io.ReadFull(c, greet); err != nil || string(greet) != "hello" {
		t.Fatalf("greeting %q %v", greet, err)
	}
	start := time.Now()
	for _, b := range []byte("abc") {
		if _, err := c.Write([]byte{b}); err != nil {
			t.Fatal(err)
		}
		resp := make([]byte, 3)
		if _, err := io.ReadFull(c, resp); err != nil || string(resp) != string([]byte{b, '-', '!'}) {
			t.Fatalf("response %q %v", resp, err)
		}
	}
	wall := time.Since(start)
	got := p.Counters()
	if got.Commands != 3 || got.Conns != 1 {
		t.Errorf("counters %+v, want 3 commands on 1 connection", got)
	}
	if min := 3 * (delay + delay/2); got.DB < min || got.DB > wall {
		t.Errorf("database time %v, want between %v and the wall time %v", got.DB, min, wall)
	}
}
