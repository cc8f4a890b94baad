package server

import (
	"bytes"
	"io"
	"math/rand"
	"net"
	"testing"
	"time"
)

func packet(seq byte, payload []byte) []byte {
	b := []byte{byte(len(payload)), byte(len(payload) >> 8), byte(len(payload) >> 16), seq}
	return append(b, payload...)
}

// TestCmdConnSplitsStream sends a client's stream — handshake response,
// commands, a long packet in two parts whose second part starts with the
// COM_CHANGE_USER byte, LOAD DATA contents, and two intercepted commands —
// in random pieces, and reads it with random buffer sizes (4 bytes
// included, as Vitess reads the handshake's header): the reader gets
// exactly the stream without the intercepted packets, the intercepted
// ones reach serve whole and in order, and the handshake's capability
// flags are kept.
func TestCmdConnSplitsStream(t *testing.T) {
	for seed := int64(1); seed <= 50; seed++ {
		rng := rand.New(rand.NewSource(seed))
		handshake := packet(1, append([]byte{0x0d, 0xa6, 0x0f, 0x00}, bytes.Repeat([]byte{'h'}, 60)...))
		query := packet(0, append([]byte{0x03}, "SELECT 1"...))
		long := bytes.Repeat([]byte{'x'}, 0xffffff)
		long[0] = 0x03
		longPart2 := append([]byte{comChangeUser}, "abc"...)
		change := packet(0, append([]byte{comChangeUser}, "bob\x00\x00db\x00"...))
		stats := packet(0, []byte{comStatistics})
		infile := packet(2, append([]byte{comChangeUser}, "file contents"...))
		var want, stream bytes.Buffer
		for _, b := range [][]byte{handshake, query, packet(0, long), packet(1, longPart2), infile} {
			want.Write(b)
			stream.Write(b)
		}
		stream.Write(change)
		stream.Write(query)
		want.Write(query)
		stream.Write(stats)

		client, server := net.Pipe()
		go func() {
			b := stream.Bytes()
			for len(b) > 0 {
				n := min(len(b), 1+rng.Intn(70000))
				if _, err := client.Write(b[:n]); err != nil {
					return
				}
				b = b[n:]
			}
			client.Close()
		}()
		cc := newCmdConn(server)
		var served [][]byte
		cc.serve = func(c *cmdConn, cmd byte, payload []byte) error {
			served = append(served, append([]byte(nil), payload...))
			return nil
		}
		var got bytes.Buffer
		rr := rand.New(rand.NewSource(seed * 7))
		for {
			buf := make([]byte, []int{4, 1 + rr.Intn(16), 16384}[rr.Intn(3)])
			server.SetReadDeadline(time.Now().Add(10 * time.Second))
			n, err := cc.Read(buf)
			got.Write(buf[:n])
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("seed %d: read: %v", seed, err)
			}
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("seed %d: passed %d bytes, want %d", seed, got.Len(), want.Len())
		}
		if len(served) != 2 || !bytes.Equal(served[0], change[4:]) || !bytes.Equal(served[1], stats[4:]) {
			t.Fatalf("seed %d: served %q", seed, served)
		}
		if cc.clientCaps != 0x000fa60d {
			t.Fatalf("seed %d: client capabilities %#x", seed, cc.clientCaps)
		}
	}
}

// TestCmdConnTLS: after an SSLRequest the stream is encrypted, and nothing
// in it is taken for a command.
func TestCmdConnTLS(t *testing.T) {
	sslRequest := packet(1, append([]byte{0x00, 0x0a, 0x0f, 0x00}, make([]byte, 28)...))
	looksLikeCommand := packet(0, []byte{comChangeUser, 1, 2, 3})
	stream := append(append([]byte(nil), sslRequest...), looksLikeCommand...)
	client, server := net.Pipe()
	go func() {
		client.Write(stream)
		client.Close()
	}()
	cc := newCmdConn(server)
	cc.serve = func(*cmdConn, byte, []byte) error {
		t.Error("a command was intercepted in a TLS stream")
		return nil
	}
	got, err := io.ReadAll(cc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, stream) {
		t.Fatalf("got %d bytes, want %d", len(got), len(stream))
	}
}

// TestParseChangeUser reads the user and database of COM_CHANGE_USER with
// and without CLIENT_SECURE_CONNECTION.
func TestParseChangeUser(t *testing.T) {
	scramble := []byte{0, 1, 2, 0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}
	p := append([]byte{comChangeUser}, "bob\x00"...)
	p = append(p, byte(len(scramble)))
	p = append(p, scramble...)
	p = append(p, "shop\x00\x2d\x00mysql_native_password\x00"...)
	r, ok := parseChangeUser(p, 0x8000)
	if !ok || r.user != "bob" || r.db != "shop" {
		t.Fatalf("secure connection: %+v %v", r, ok)
	}
	old := append([]byte{comChangeUser}, "al\x00pw\x00\x00"...)
	r, ok = parseChangeUser(old, 0)
	if !ok || r.user != "al" || r.db != "" {
		t.Fatalf("old form: %+v %v", r, ok)
	}
	if _, ok := parseChangeUser([]byte{comChangeUser, 'x'}, 0x8000); ok {
		t.Fatal("a user without its NUL parsed")
	}
	if _, ok := parseChangeUser(append([]byte{comChangeUser}, "bob\x00\x20ab"...), 0x8000); ok {
		t.Fatal("a scramble longer than the packet parsed")
	}
}
