package bench

import (
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// dbProxy is a loopback TCP proxy between an application (Redmine) and a
// database server that measures the time the application waits for the
// database, the same way for every engine.
//
// The MySQL protocol is strictly request → response on a connection (the
// client sends a command and reads the whole response before it sends the
// next one), so the proxy times each command from the moment the client's
// bytes reach it to the moment the server's last response bytes reach it:
// while a command is outstanding, every read of server bytes adds the time
// since the previous mark (the command's arrival or the previous server
// read) to the total. Commands without a response (COM_STMT_CLOSE,
// COM_QUIT) add nothing. The connection handshake counts as a command too
// (the client's handshake response to the server's OK).
//
// Precision: the proxy's reads are timestamped when the Go runtime
// delivers them, so each command's time includes a few microseconds of
// loopback hops and scheduling on top of the server's own; the hop itself
// adds that latency to every statement for every engine alike.
type dbProxy struct {
	ln       net.Listener
	target   string
	dbNanos  atomic.Int64 // total command time over all connections
	commands atomic.Int64 // commands the clients sent
	conns    atomic.Int64 // connections accepted
	wg       sync.WaitGroup
	mu       sync.Mutex
	open     map[net.Conn]struct{}
	closed   bool
}

// newDBProxy listens on a free loopback port and forwards every connection
// to target (host:port).
func newDBProxy(target string) (*dbProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("db proxy: listen: %w", err)
	}
	p := &dbProxy{ln: ln, target: target, open: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Port is the proxy's loopback port.
func (p *dbProxy) Port() int { return p.ln.Addr().(*net.TCPAddr).Port }

// Addr is the proxy's host:port.
func (p *dbProxy) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(p.Port())) }

// dbCounters is a snapshot of the proxy's totals.
type dbCounters struct {
	DB       time.Duration // time commands were outstanding, summed over connections
	Commands int64
	Conns    int64
}

// Sub is c − o.
func (c dbCounters) Sub(o dbCounters) dbCounters {
	return dbCounters{DB: c.DB - o.DB, Commands: c.Commands - o.Commands, Conns: c.Conns - o.Conns}
}

// Counters returns the totals so far.
func (p *dbProxy) Counters() dbCounters {
	return dbCounters{DB: time.Duration(p.dbNanos.Load()), Commands: p.commands.Load(), Conns: p.conns.Load()}
}

func (p *dbProxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		if !p.track(c) {
			c.Close()
			return
		}
		p.conns.Add(1)
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.serve(c)
		}()
	}
}

// track registers c for Close; false once the proxy is closed.
func (p *dbProxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.open[c] = struct{}{}
	return true
}

func (p *dbProxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.open, c)
	p.mu.Unlock()
}

// proxyConn is the timing state of one proxied connection.
type proxyConn struct {
	mu          sync.Mutex
	outstanding bool      // a command awaits (more of) its response
	mark        time.Time // command arrival or last response read
}

// clientSent records client bytes arriving at t: a new command unless one
// is already outstanding without any response yet (a command split over
// several reads, or several packets of one command).
func (pc *proxyConn) clientSent(t time.Time) bool {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	newCmd := !pc.outstanding
	pc.outstanding, pc.mark = true, t
	return newCmd
}

// serverSent records server bytes arriving at t and returns the command
// time they close.
func (pc *proxyConn) serverSent(t time.Time) time.Duration {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if !pc.outstanding {
		return 0 // the greeting, or data nobody asked for
	}
	d := t.Sub(pc.mark)
	pc.mark = t
	if d < 0 {
		d = 0
	}
	return d
}

// responded ends the outstanding command: called when the client sends
// again after the server answered (see serve).
func (pc *proxyConn) responded() {
	pc.mu.Lock()
	pc.outstanding = false
	pc.mu.Unlock()
}

func (p *dbProxy) serve(c net.Conn) {
	defer p.untrack(c)
	defer c.Close()
	s, err := net.DialTimeout("tcp", p.target, 10*time.Second)
	if err != nil {
		return
	}
	if !p.track(s) {
		s.Close()
		return
	}
	defer p.untrack(s)
	defer s.Close()
	var pc proxyConn
	// answered is set by the server side after a response read and
	// cleared by the client side, so the client's next bytes start a new
	// command.
	var answered atomic.Bool
	done := make(chan struct{})
	go func() { // server → client
		defer close(done)
		buf := make([]byte, 32<<10)
		for {
			n, err := s.Read(buf)
			if n > 0 {
				if d := pc.serverSent(time.Now()); d > 0 {
					p.dbNanos.Add(int64(d))
				}
				answered.Store(true)
				if _, werr := c.Write(buf[:n]); werr != nil {
					break
				}
			}
			if err != nil {
				break
			}
		}
		c.Close()
	}()
	buf := make([]byte, 32<<10)
	for {
		n, err := c.Read(buf)
		if n > 0 {
			if answered.Swap(false) {
				pc.responded()
			}
			if pc.clientSent(time.Now()) {
				p.commands.Add(1)
			}
			if _, werr := s.Write(buf[:n]); werr != nil {
				break
			}
		}
		if err != nil { // EOF, reset or closed by Close: the session ends
			break
		}
	}
	s.Close()
	<-done
}

// Close stops listening, closes every proxied connection and waits for
// the proxy's goroutines.
func (p *dbProxy) Close() error {
	p.mu.Lock()
	p.closed = true
	for c := range p.open {
		c.Close()
	}
	p.mu.Unlock()
	err := p.ln.Close()
	p.wg.Wait()
	return err
}
