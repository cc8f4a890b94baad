package server

import (
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"
)

// listeners merges the TCP listener and the Unix socket into the one
// net.Listener Vitess's protocol listener accepts from, so connection ids
// stay unique across both (Vitess numbers the connections of a listener).
// An accept error other than the listener's close is retried after a
// pause (EMFILE, ECONNABORTED): Vitess stops accepting at the first error
// it sees.
type listeners struct {
	all   []net.Listener
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
	wg    sync.WaitGroup
}

// acceptRetry is the pause after a failed accept.
const acceptRetry = 50 * time.Millisecond

// keepAlivePeriod is the TCP keep-alive period of client connections.
const keepAlivePeriod = 30 * time.Second

func mergeListeners(ls ...net.Listener) *listeners {
	m := &listeners{all: ls, conns: make(chan net.Conn), done: make(chan struct{})}
	for _, l := range ls {
		m.wg.Add(1)
		go m.acceptFrom(l)
	}
	return m
}

func (m *listeners) acceptFrom(l net.Listener) {
	defer m.wg.Done()
	for {
		c, err := l.Accept()
		if err != nil {
			select {
			case <-m.done:
				return
			default:
			}
			if errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(acceptRetry)
			continue
		}
		if tc, ok := c.(*net.TCPConn); ok {
			// Vitess sets keep-alive only on a *net.TCPConn, which the
			// wrapper below hides from it.
			_ = tc.SetKeepAlive(true)
			_ = tc.SetKeepAlivePeriod(keepAlivePeriod)
		}
		// The wrapper serves the commands Vitess does not
		// (command_conn.go).
		c = newCmdConn(c)
		select {
		case m.conns <- c:
		case <-m.done:
			_ = c.Close()
			return
		}
	}
}

// Accept implements net.Listener.
func (m *listeners) Accept() (net.Conn, error) {
	select {
	case c := <-m.conns:
		return c, nil
	case <-m.done:
		return nil, net.ErrClosed
	}
}

// Close implements net.Listener: it closes every listener (a Unix
// socket's file goes with it).
func (m *listeners) Close() error {
	var err error
	m.once.Do(func() {
		close(m.done)
		for _, l := range m.all {
			err = errors.Join(err, l.Close())
		}
		m.wg.Wait()
	})
	return err
}

// Addr implements net.Listener: the first listener's address (TCP).
func (m *listeners) Addr() net.Addr { return m.all[0].Addr() }

// listenUnix listens on the Unix socket path, replacing a stale socket
// file (one nothing answers on: left by a server that was killed), and
// lets every local user connect (authentication decides who gets in, as
// with MySQL's socket).
func listenUnix(path string) (net.Listener, error) {
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("socket %s: a file that is not a socket is in the way", path)
		}
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			_ = c.Close()
			return nil, fmt.Errorf("socket %s: another server is listening on it", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("remove stale socket %s: %w", path, err)
		}
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listen on socket %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o777); err != nil {
		_ = l.Close()
		return nil, fmt.Errorf("socket %s: %w", path, err)
	}
	return l, nil
}
