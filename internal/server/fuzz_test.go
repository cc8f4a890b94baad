package server_test

import (
	"context"
	gosql "database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/server"
	"github.com/strata-db/strata/internal/sql"
	"github.com/strata-db/strata/internal/testengine"
)

// FuzzPacket sends hostile bytes to the protocol server over a raw TCP
// connection and checks that the server survives with only that connection
// closed: a connection opened before the input still runs SELECT 1
// afterwards, and so does a new one. The input is a mode and bytes:
//
//	mode%3 == 0   the bytes are the client's handshake response, raw
//	              (length header and sequence number included)
//	mode%3 == 1   after a valid handshake, the bytes are sent raw: packets
//	              with any lengths and sequence numbers, truncated packets,
//	              oversized length headers
//	mode%3 == 2   after a valid handshake, the bytes are one command payload,
//	              framed correctly (COM_QUERY, COM_STMT_EXECUTE with garbage
//	              parameters, unknown commands, ...)
//
// The seed corpus is testdata/fuzz/FuzzPacket plus the packetSeeds below.
func FuzzPacket(f *testing.F) {
	for _, s := range packetSeeds() {
		f.Add(s.mode, s.data)
	}
	addr, checkAlive := startFuzzServer(f)
	f.Fuzz(func(t *testing.T, mode uint8, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		if err := sendHostile(addr, mode, data); err != nil {
			t.Fatalf("mode %d: %v", mode%3, err)
		}
		if err := checkAlive(); err != nil {
			t.Fatalf("mode %d, input %q: server no longer serves other connections: %v", mode%3, data, err)
		}
	})
}

// ioTimeout bounds every read and write of the raw connection.
const ioTimeout = 2 * time.Second

// startFuzzServer starts a server over an in-memory store and returns its
// address and a check that a long-lived connection and a new one both still
// answer SELECT 1.
func startFuzzServer(f *testing.F) (string, func() error) {
	eng := newMemEngine(f)
	srv, err := server.New(eng, server.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		f.Fatal(err)
	}
	go srv.Serve()
	addr := srv.Addr().String()

	cfg := mysql.NewConfig()
	cfg.User, cfg.Net, cfg.Addr = "root", "tcp", addr
	cfg.Timeout, cfg.ReadTimeout, cfg.WriteTimeout = ioTimeout, 10*time.Second, ioTimeout
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		f.Fatal(err)
	}
	pool := gosql.OpenDB(connector)
	pool.SetMaxIdleConns(0) // every check opens a new connection
	ctx := context.Background()
	held, err := pool.Conn(ctx)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() {
		held.Close()
		pool.Close()
		srv.Close()
	})
	selectOne := func(q interface {
		QueryRowContext(context.Context, string, ...any) *gosql.Row
	}) error {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		var one int
		if err := q.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
			return fmt.Errorf("SELECT 1 = %d, %v", one, err)
		}
		return nil
	}
	return addr, func() error {
		if err := selectOne(held); err != nil {
			return fmt.Errorf("connection opened before the input: %w", err)
		}
		if err := selectOne(pool); err != nil {
			return fmt.Errorf("new connection: %w", err)
		}
		return nil
	}
}

// sendHostile runs one input on a new raw connection. It returns an error
// only when the server misbehaves in a way the connection can tell: the
// greeting is missing or the valid handshake is refused.
func sendHostile(addr string, mode uint8, data []byte) error {
	conn, err := net.DialTimeout("tcp", addr, ioTimeout)
	if err != nil {
		return fmt.Errorf("dial: %w", err)
	}
	defer conn.Close()
	greeting, err := readPacket(conn)
	if err != nil {
		return fmt.Errorf("read greeting: %w", err)
	}
	switch mode % 3 {
	case 0:
		writeAll(conn, data)
	case 1, 2:
		if err := handshake(conn, greeting); err != nil {
			return err
		}
		if mode%3 == 2 {
			data = packet(0, data)
		}
		writeAll(conn, data)
	}
	// Drain whatever the server answers until it closes the connection (or
	// the deadline passes: it may wait for the rest of a truncated packet).
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	}
	_ = conn.SetReadDeadline(time.Now().Add(ioTimeout))
	_, _ = io.Copy(io.Discard, io.LimitReader(conn, 64<<20))
	return nil
}

// writeAll writes b with a deadline; the server may close the connection
// before reading everything, which is not an error.
func writeAll(conn net.Conn, b []byte) {
	_ = conn.SetWriteDeadline(time.Now().Add(ioTimeout))
	_, _ = conn.Write(b)
}

// readPacket reads one protocol packet's payload with a deadline.
func readPacket(conn net.Conn) ([]byte, error) {
	_ = conn.SetReadDeadline(time.Now().Add(ioTimeout))
	var hdr [4]byte
	if _, err := io.ReadFull(conn, hdr[:]); err != nil {
		return nil, err
	}
	n := int(hdr[0]) | int(hdr[1])<<8 | int(hdr[2])<<16
	payload := make([]byte, n)
	if _, err := io.ReadFull(conn, payload); err != nil {
		return nil, err
	}
	return payload, nil
}

// packet frames payload as one protocol packet with sequence number seq.
func packet(seq byte, payload []byte) []byte {
	n := len(payload)
	return append([]byte{byte(n), byte(n >> 8), byte(n >> 16), seq}, payload...)
}

// clientCaps are the capabilities of the valid handshake response.
const clientCaps = 1<<0 | 1<<9 | 1<<13 | 1<<15 | 1<<17 | 1<<19 // long password, 4.1, transactions, secure conn, multi results, plugin auth

// handshakeResponse is a HandshakeResponse41 for root without a password.
func handshakeResponse() []byte {
	var p []byte
	p = binary.LittleEndian.AppendUint32(p, clientCaps)
	p = binary.LittleEndian.AppendUint32(p, 1<<24)
	p = append(p, 45) // utf8mb4_general_ci
	p = append(p, make([]byte, 23)...)
	p = append(p, "root\x00"...)
	p = append(p, 0) // empty auth response
	p = append(p, "mysql_native_password\x00"...)
	return packet(1, p)
}

// handshake logs in as root without a password, answering an auth switch
// request with an empty response.
func handshake(conn net.Conn, greeting []byte) error {
	if len(greeting) == 0 || greeting[0] != 10 {
		return fmt.Errorf("greeting is not protocol 10: %q", greeting)
	}
	writeAll(conn, handshakeResponse())
	seq := byte(3)
	for range 3 {
		resp, err := readPacket(conn)
		if err != nil {
			return fmt.Errorf("read handshake reply: %w", err)
		}
		switch {
		case len(resp) > 0 && resp[0] == 0x00:
			return nil
		case len(resp) > 0 && resp[0] == 0xfe:
			writeAll(conn, packet(seq, nil))
			seq += 2
		default:
			return fmt.Errorf("valid handshake refused: %q", resp)
		}
	}
	return errors.New("handshake did not finish")
}

type packetSeed struct {
	mode uint8
	data []byte
}

// packetSeeds are hand-written hostile inputs (also committed as
// testdata/fuzz/FuzzPacket).
func packetSeeds() []packetSeed {
	le32 := func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	query := func(q string) []byte { return append([]byte{0x03}, q...) }
	hs := handshakeResponse()
	return []packetSeed{
		// handshake response
		{0, hs},
		{0, hs[:len(hs)/2]},      // truncated
		{0, packet(1, hs[4:20])}, // short payload, valid frame
		{0, packet(1, cat(le32(1<<11|1<<9), le32(0), []byte{8}, make([]byte, 23)))},                                                                      // SSL request without TLS
		{0, packet(1, cat(le32(clientCaps|1<<21|1<<20), le32(0), []byte{45}, make([]byte, 23), []byte("root\x00\xfc\xff\xff"), []byte("\xfc\xff\xff")))}, // lenenc auth and attrs overflowing
		{0, []byte{0xff, 0xff, 0xff, 0x01, 0x00}},        // oversized length header
		{0, []byte{0x00, 0x00, 0x00, 0x01}},              // empty packet
		{0, packet(7, hs[4:])},                           // wrong sequence number
		{0, packet(1, cat(le32(0), le32(0), []byte{0}))}, // pre-4.1 client
		{0, packet(1, cat(le32(clientCaps|1<<3), le32(0), []byte{45}, make([]byte, 23), []byte("root\x00\x00nosuchdb\x00")))},
		// raw command stream
		{1, packet(0, query("SELECT 1"))},
		{1, cat(packet(0, query("SELECT 1")), packet(0, query("SELECT 2")))},
		{1, cat([]byte{100, 0, 0, 0}, query("SEL"))},             // truncated packet
		{1, cat([]byte{0xff, 0xff, 0xff, 0}, query("SELECT 1"))}, // 16 MiB header, few bytes
		{1, cat([]byte{0xff, 0xff, 0xff, 0}, make([]byte, 1024), []byte{0, 0, 0, 1})},
		{1, packet(9, query("SELECT 1"))},                                                        // wrong sequence number
		{1, []byte{0, 0, 0, 0}},                                                                  // empty packet
		{1, cat(packet(0, []byte{0x0e}), packet(0, []byte{0x01}), packet(0, query("SELECT 1")))}, // ping, quit, more
		{1, cat(packet(0, []byte{0x16}), []byte("SELECT ?"))},                                    // prepare with the query outside the packet
		// prepare, then execute with malformed parameters (types, NULL bitmap, values)
		{1, cat(packet(0, []byte("\x16SELECT ?, ?")), packet(0, cat([]byte{0x17}, le32(1), []byte{0}, le32(1), []byte{0, 1, 0xfe, 0, 0xfc, 0xff, 0xff, 0xff})))},
		{1, cat(packet(0, []byte("\x16SELECT ?")), packet(0, cat([]byte{0x17}, le32(1), []byte{0}, le32(1), []byte{0, 1, 0x0c, 0, 0x0b})))},
		{1, cat(packet(0, []byte("\x16SELECT ?")), packet(0, cat([]byte{0x18}, le32(1), []byte{0, 0}, []byte("xyz"))), packet(0, cat([]byte{0x17}, le32(1), []byte{0}, le32(1), []byte{0, 1, 0xfc, 0})))},
		// one command payload
		{2, query("SELECT 1")},
		{2, query("")},
		{2, query("SELECT * FROM information_schema.tables; SELECT 1")},
		{2, query("CREATE DATABASE IF NOT EXISTS fz")},
		{2, []byte{0x02}}, // COM_INIT_DB without a name
		{2, []byte("\x02no such db")},
		{2, []byte("\x04t\x00")}, // COM_FIELD_LIST
		{2, []byte{0x16}},        // COM_STMT_PREPARE, empty
		{2, []byte("\x16SELECT ?, ?")},
		{2, cat([]byte{0x17}, le32(1), []byte{0}, le32(1))}, // COM_STMT_EXECUTE of an unknown statement
		{2, cat([]byte{0x17}, le32(1), []byte{0}, le32(1), []byte{0, 1, 0xfd, 0, 0xfc, 0xff, 0xff})},
		{2, cat([]byte{0x18}, le32(1), []byte{0, 0}, []byte("long data"))},              // COM_STMT_SEND_LONG_DATA
		{2, cat([]byte{0x19}, le32(12345))},                                             // COM_STMT_CLOSE
		{2, cat([]byte{0x1a}, le32(0))},                                                 // COM_STMT_RESET
		{2, cat([]byte{0x1c}, le32(1), le32(100))},                                      // COM_STMT_FETCH
		{2, []byte{0x1b, 0x00}},                                                         // COM_SET_OPTION, short
		{2, []byte{0x1f}},                                                               // COM_RESET_CONNECTION
		{2, []byte("\x11root\x00\x00")},                                                 // COM_CHANGE_USER
		{2, []byte{0x11}},                                                               // COM_CHANGE_USER, no user
		{2, []byte("\x11bob\x00\x14short")},                                             // COM_CHANGE_USER, scramble longer than the packet
		{1, cat(packet(0, []byte("\x11root\x00\x00")), packet(0, query("SELECT 1")))},   // change user, then a command instead of the switch reply
		{1, cat(packet(0, []byte{0x09}), packet(0, []byte{0x09}))},                      // two COM_STATISTICS
		{2, cat([]byte{0x12}, le32(4), []byte{0, 0}, le32(1), []byte("binlog.000001"))}, // COM_BINLOG_DUMP
		{2, []byte{0x1e, 0, 0}},                                                         // COM_BINLOG_DUMP_GTID, short
		{2, cat([]byte{0x15}, le32(1))},                                                 // COM_REGISTER_SLAVE, short
		{2, cat([]byte{0x0c}, le32(1))},                                                 // COM_PROCESS_KILL
		{2, []byte{0x09}},                                                               // COM_STATISTICS
		{2, []byte{0x7f, 0xff}},                                                         // unknown command
		{2, nil},                                                                        // empty payload
	}
}

// newMemEngine opens an engine over an in-memory store.
func newMemEngine(tb testing.TB) *sql.Engine {
	return testengine.Open(tb, testengine.Options{MemoryBudget: 64 << 20, Quiet: true})
}
