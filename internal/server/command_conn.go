package server

import (
	"errors"
	"fmt"
	"net"
	"sync/atomic"
	"syscall"

	"vitess.io/vitess/go/mysql/sqlerror"
)

// Protocol commands strata serves itself, below Vitess's listener, which
// answers them with "command handling not implemented" (its command loop
// cannot be extended): COM_CHANGE_USER (connection pools, Node mysql2's
// changeUser) and COM_STATISTICS (mysqladmin status).
const (
	comStatistics = 0x09
	comChangeUser = 0x11
)

// clientSSL is the CLIENT_SSL capability flag of a handshake response.
const clientSSL = 0x0800

// maxInterceptedPacket bounds the packets cmdConn reads itself: a
// COM_CHANGE_USER carries a user name, a scramble, a database name and
// connection attributes.
const maxInterceptedPacket = 64 << 10

// cmdConn wraps an accepted connection (TCP or Unix socket). It follows the packet
// boundaries of what the client sends and takes the commands Vitess does
// not serve out of the stream, answering them on the connection itself;
// everything else reaches Vitess unchanged, read into Vitess's own buffer
// (no copy on the way). A command starts a packet with sequence number 0
// (the handshake, its authentication exchange, LOAD DATA LOCAL contents and
// the continuation of a long packet never do), so such a packet whose first
// byte is an intercepted command is one. A client that asks for TLS in its
// first packet gets the connection as it is from then on (the stream is
// encrypted; TLS clients fall back to Vitess's answer).
//
// Read runs on the connection's goroutine, between the commands Vitess
// reads, so the session is never used by two goroutines at once, and
// Vitess has flushed its answer to the previous command before it reads
// the next one.
type cmdConn struct {
	net.Conn
	// rest is the number of payload bytes of the current packet still to
	// pass to Vitess (0: at a packet boundary).
	rest int
	// packets counts the client's packets passed on; the first decides
	// TLS.
	packets int
	// plain: the stream is no longer scanned (TLS requested); tlsNext:
	// it stops being scanned once the current packet has passed.
	plain, tlsNext bool
	// clientCaps are the capability flags of the client's handshake
	// response (Vitess keeps only two of them).
	clientCaps uint32
	// dumpFlags are the flags of the last COM_BINLOG_DUMP, which Vitess's
	// parser drops (binlog_dump.go).
	dumpFlags atomic.Uint32
	// pending holds bytes read from the socket and not yet scanned; pass
	// bytes scanned and passed but not yet read by Vitess.
	pending, pass []byte
	// serve answers an intercepted command (set when Vitess's connection
	// exists: handler.NewConnection); nil answers every one with an error.
	serve func(c *cmdConn, cmd byte, payload []byte) error
	// transfer: the client is sending a LOAD DATA LOCAL file, whose
	// packets' sequence numbers wrap to 0 without being commands.
	transfer bool
	// okInfo, when set, is the info string for the next OK packet written
	// (ok_info.go).
	okInfo atomic.Pointer[string]
	// greeted: the server's greeting has been written (local_infile.go
	// adds CLIENT_LOCAL_FILES to its capabilities).
	greeted atomic.Bool
}

func newCmdConn(c net.Conn) *cmdConn { return &cmdConn{Conn: c} }

// Unwrap returns the wrapped connection.
func (c *cmdConn) Unwrap() net.Conn { return c.Conn }

// SyscallConn gives the socket to those who set options on it (TCP_CORK).
func (c *cmdConn) SyscallConn() (syscall.RawConn, error) {
	if sc, ok := c.Conn.(syscall.Conn); ok {
		return sc.SyscallConn()
	}
	return nil, errors.New("not a socket")
}

// Read implements net.Conn for Vitess's reader. Bytes come straight from
// the socket into p when nothing is held back (the common case: no copy);
// a packet that must be seen before it can be passed on (an intercepted
// command, or too few bytes to tell) is held in pending, scanned there, and
// what passes is copied out.
func (c *cmdConn) Read(p []byte) (int, error) {
	for {
		if len(c.pass) > 0 {
			n := copy(p, c.pass)
			c.pass = c.pass[n:]
			return n, nil
		}
		if len(p) == 0 {
			return 0, nil
		}
		if len(c.pending) == 0 {
			if c.plain {
				return c.Conn.Read(p)
			}
			n, err := c.Conn.Read(p)
			if n == 0 {
				return 0, err
			}
			k, stop := c.scan(p[:n])
			if k == n {
				return n, nil
			}
			c.pending = append(c.pending, p[k:n]...)
			if k > 0 {
				return k, nil
			}
			if stop == scanIntercept {
				if err := c.intercept(); err != nil {
					return 0, err
				}
			}
			continue
		}
		k, stop := c.scan(c.pending)
		if k > 0 {
			c.pass = append(c.pass[:0], c.pending[:k]...)
			c.pending = c.pending[k:]
			continue
		}
		if stop == scanIntercept {
			if err := c.intercept(); err != nil {
				return 0, err
			}
			continue
		}
		// Not enough of the next packet to decide: read more.
		if err := c.fill(len(c.pending) + 1); err != nil {
			return 0, err
		}
	}
}

type scanStop int

const (
	scanMore      scanStop = iota // the packet at k needs more bytes to decide
	scanIntercept                 // the packet at k is a command served here
)

// scan advances over data, which follows the bytes scanned before, and
// returns how many bytes of it pass to Vitess; if fewer than all, the
// packet at that offset is either one to intercept or undecided without
// more bytes. A returned offset is always a packet boundary.
func (c *cmdConn) scan(data []byte) (int, scanStop) {
	i := 0
	for i < len(data) {
		if c.rest > 0 {
			skip := min(c.rest, len(data)-i)
			i += skip
			c.rest -= skip
			if c.rest == 0 && c.tlsNext {
				c.plain = true
				return len(data), scanMore
			}
			continue
		}
		if c.plain {
			return len(data), scanMore
		}
		if len(data)-i < 4 {
			return i, scanMore
		}
		length := int(data[i]) | int(data[i+1])<<8 | int(data[i+2])<<16
		seq := data[i+3]
		if c.packets == 0 && length >= 4 {
			// The first packet is the handshake response, or an
			// SSLRequest (32 bytes with CLIENT_SSL): both start with
			// the client's capability flags.
			if len(data)-i < 8 {
				return i, scanMore
			}
			c.clientCaps = uint32(data[i+4]) | uint32(data[i+5])<<8 | uint32(data[i+6])<<16 | uint32(data[i+7])<<24
			c.tlsNext = length == 32 && c.clientCaps&clientSSL != 0
		}
		if seq == 0 && length > 0 && c.packets > 0 && !c.transfer {
			if len(data)-i < 5 {
				return i, scanMore
			}
			if intercepted(data[i+4]) {
				return i, scanIntercept
			}
			if data[i+4] == comBinlogDump && length >= 7 {
				if len(data)-i < 11 {
					return i, scanMore
				}
				c.dumpFlags.Store(uint32(data[i+9]) | uint32(data[i+10])<<8)
			}
		}
		c.packets++
		c.rest = length
		i += 4
		if length == 0 && c.tlsNext {
			c.plain = true
			return len(data), scanMore
		}
	}
	return i, scanMore
}

func intercepted(cmd byte) bool { return cmd == comChangeUser || cmd == comStatistics }

// fill reads from the socket until pending holds at least n bytes.
func (c *cmdConn) fill(n int) error {
	for len(c.pending) < n {
		buf := make([]byte, max(n-len(c.pending), 4096))
		m, err := c.Conn.Read(buf)
		c.pending = append(c.pending, buf[:m]...)
		if m == 0 && err != nil {
			return err
		}
	}
	return nil
}

// readPacket takes one whole packet (header and payload) from the stream,
// reading the socket as needed; a packet longer than
// maxInterceptedPacket ends the connection.
func (c *cmdConn) readPacket() (seq byte, payload []byte, err error) {
	if err := c.fill(4); err != nil {
		return 0, nil, err
	}
	length := int(c.pending[0]) | int(c.pending[1])<<8 | int(c.pending[2])<<16
	seq = c.pending[3]
	if length > maxInterceptedPacket {
		return 0, nil, fmt.Errorf("protocol command of %d bytes", length)
	}
	if err := c.fill(4 + length); err != nil {
		return 0, nil, err
	}
	payload = append([]byte(nil), c.pending[4:4+length]...)
	c.pending = c.pending[4+length:]
	return seq, payload, nil
}

// intercept reads the command at the head of the stream and serves it.
func (c *cmdConn) intercept() error {
	payload, err := c.readFrom()
	if err != nil {
		return err
	}
	if c.serve == nil {
		return c.writeErr(1, sqlerror.ERUnknownComError, sqlerror.SSNetError, "Unknown command")
	}
	return c.serve(c, payload[0], payload)
}

// writePacket writes one packet with sequence number seq.
func (c *cmdConn) writePacket(seq byte, payload []byte) error {
	b := make([]byte, 4, 4+len(payload))
	b[0], b[1], b[2], b[3] = byte(len(payload)), byte(len(payload)>>8), byte(len(payload)>>16), seq
	_, err := c.Conn.Write(append(b, payload...))
	return err
}

// writeOK writes an OK packet with the server status flags.
func (c *cmdConn) writeOK(seq byte, status uint16) error {
	return c.writePacket(seq, []byte{0x00, 0, 0, byte(status), byte(status >> 8), 0, 0})
}

// writeError writes err as an ERR packet: its MySQL number, state and
// message, or code and state with its text when it is not a MySQL error.
func (c *cmdConn) writeError(seq byte, err error, code sqlerror.ErrorCode, state string) error {
	var se *sqlerror.SQLError
	if errors.As(err, &se) {
		return c.writeErr(seq, se.Number(), se.SQLState(), se.Message)
	}
	return c.writeErr(seq, code, state, err.Error())
}

// writeErr writes an ERR packet.
func (c *cmdConn) writeErr(seq byte, code sqlerror.ErrorCode, state, msg string) error {
	b := []byte{0xff, byte(code), byte(code >> 8), '#'}
	b = append(b, state...)
	b = append(b, msg...)
	return c.writePacket(seq, b)
}

// readFrom takes the next packet the client sent: an intercepted command,
// or its reply in an exchange this side started (an authentication
// switch).
func (c *cmdConn) readFrom() ([]byte, error) {
	_, payload, err := c.readPacket()
	if err != nil {
		return nil, err
	}
	c.packets++
	return payload, nil
}
