package server

import (
	"errors"
	"io"

	"vitess.io/vitess/go/mysql"
)

// LOAD DATA LOCAL INFILE through the protocol: during the COM_QUERY, the
// server sends a packet 0xFB followed by the file name; the client answers
// with the file's contents in packets of any size and ends them with an
// empty packet (or sends the empty packet at once when it refuses); then
// the server sends the statement's OK or error packet. The packets carry
// the command's sequence numbers on, which Vitess's connection keeps.

// clientLocalFiles is the CLIENT_LOCAL_FILES capability flag.
const clientLocalFiles = 1 << 7

// withLocalFiles returns a copy of the server's greeting p (a protocol 10
// handshake packet, the first thing written on a connection) with
// CLIENT_LOCAL_FILES added to its capabilities, which Vitess does not
// announce: clients that honour the server's capabilities (go-sql-driver)
// would otherwise never send a file. false when p is not a greeting.
func withLocalFiles(p []byte) ([]byte, bool) {
	// header(4) protocol(1) version NUL conn-id(4) auth-data(8) filler(1)
	// capabilities-low(2)
	if len(p) < 5 || p[4] != 10 {
		return nil, false
	}
	end := 5
	for end < len(p) && p[end] != 0 {
		end++
	}
	pos := end + 1 + 4 + 8 + 1
	if pos+2 > len(p) {
		return nil, false
	}
	q := append([]byte(nil), p...)
	q[pos] |= clientLocalFiles
	return q, true
}

// localFiles reads a connection's client files (sql.LocalFiles).
type localFiles struct {
	c  *mysql.Conn
	cc *cmdConn
}

// OpenLocalFile sends the request for name and returns a reader of the
// client's packets. It runs on the connection's goroutine, inside the
// COM_QUERY, so nothing else reads or writes the connection meanwhile.
func (l *localFiles) OpenLocalFile(name string) (io.ReadCloser, error) {
	l.cc.transfer = true
	pkt := make([]byte, mysql.PacketHeaderSize+1+len(name))
	pkt[mysql.PacketHeaderSize] = 0xfb
	copy(pkt[mysql.PacketHeaderSize+1:], name)
	if err := l.c.WritePacket(pkt); err != nil {
		return nil, err
	}
	if err := l.c.FlushWriteBuffer(); err != nil {
		return nil, err
	}
	return &localReader{c: l.c, cc: l.cc}, nil
}

// localReader reads the contents the client sends, one packet at a time
// into a buffer it reuses: memory is one packet, whatever the file's size.
type localReader struct {
	c   *mysql.Conn
	cc  *cmdConn
	hdr [mysql.PacketHeaderSize]byte
	buf []byte
	off int
	// done: the empty packet that ends the contents has come; err: the
	// connection failed.
	done bool
	err  error
	// prevMax: the last packet had the maximum size, so an empty packet
	// after it continues it rather than ending the contents.
	prevMax bool
}

func (r *localReader) Read(p []byte) (int, error) {
	for r.off == len(r.buf) {
		if r.done {
			return 0, io.EOF
		}
		if r.err != nil {
			return 0, r.err
		}
		r.next()
	}
	n := copy(p, r.buf[r.off:])
	r.off += n
	return n, nil
}

// next reads the next packet.
func (r *localReader) next() {
	r.buf, r.off = r.buf[:0], 0
	n, err := r.c.ReadHeaderInto(r.hdr[:])
	if err != nil {
		r.err = errors.Join(errLocalRead, err)
		return
	}
	if n == 0 && !r.prevMax {
		r.done = true
		return
	}
	r.prevMax = n == mysql.MaxPacketSize
	if cap(r.buf) < n {
		r.buf = make([]byte, n)
	}
	r.buf = r.buf[:n]
	if err := r.c.ReadDataInto(r.buf); err != nil {
		r.buf = r.buf[:0]
		r.err = errors.Join(errLocalRead, err)
	}
}

// errLocalRead marks a failure to read the client's file packets.
var errLocalRead = errors.New("reading the LOAD DATA LOCAL contents")

// Close reads and drops whatever the client still sends, up to its empty
// packet, so the statement's answer follows the contents as the protocol
// requires (a load that failed part way must still take the rest). A
// connection that failed is closed after the statement.
func (r *localReader) Close() error {
	for !r.done && r.err == nil {
		r.next()
	}
	// The client waits for the answer: nothing after the empty packet
	// has been read.
	r.cc.transfer = false
	if r.err != nil {
		r.c.MarkForClose()
		return r.err
	}
	return nil
}
