package server_test

import (
	gosql "database/sql"
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/server"
)

// TestUnixSocket serves TCP and a Unix socket from one server: root logs
// in on the socket without its password (the test runs as the server's
// user), not over TCP; a created account authenticates on the socket as
// from localhost; connection ids stay unique across both; a stale socket
// file left by a killed server is replaced, a file that is not a socket is
// not.
func TestUnixSocket(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "mysql.sock")
	// A stale socket: bound, then abandoned without removing the file.
	stale, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	stale.(*net.UnixListener).SetUnlinkOnClose(false)
	stale.Close()

	eng := newMemEngine(t)
	srv, err := server.New(eng, server.Config{Addr: "127.0.0.1:0", RootPassword: "pw", Socket: sock})
	if err != nil {
		t.Fatalf("socket over a stale file: %v", err)
	}
	go srv.Serve()
	t.Cleanup(srv.Close)

	open := func(netw, addr, user, pw string) *gosql.DB {
		cfg := mysql.NewConfig()
		cfg.User, cfg.Passwd, cfg.Net, cfg.Addr = user, pw, netw, addr
		cfg.Timeout, cfg.ReadTimeout, cfg.WriteTimeout = 5*time.Second, 10*time.Second, 5*time.Second
		c, err := mysql.NewConnector(cfg)
		if err != nil {
			t.Fatal(err)
		}
		db := gosql.OpenDB(c)
		db.SetMaxOpenConns(1)
		t.Cleanup(func() { db.Close() })
		return db
	}
	one := func(db *gosql.DB, q string) (string, error) {
		var s string
		err := db.QueryRow(q).Scan(&s)
		return s, err
	}
	errNum := func(err error) uint16 {
		var me *mysql.MySQLError
		if errors.As(err, &me) {
			return me.Number
		}
		return 0
	}

	rootSock := open("unix", sock, "root", "")
	if who, err := one(rootSock, "SELECT CURRENT_USER()"); err != nil || who != "root@localhost" {
		t.Fatalf("root on the socket without a password: %q, %v", who, err)
	}
	if _, err := one(open("tcp", srv.Addr().String(), "root", ""), "SELECT 1"); errNum(err) != 1045 {
		t.Fatalf("root over TCP without a password: %v, want 1045", err)
	}
	rootTCP := open("tcp", srv.Addr().String(), "root", "pw")
	if _, err := rootTCP.Exec("CREATE USER 'app'@'localhost' IDENTIFIED BY 'apw'"); err != nil {
		t.Fatal(err)
	}
	if who, err := one(open("unix", sock, "app", "apw"), "SELECT CURRENT_USER()"); err != nil || who != "app@localhost" {
		t.Fatalf("app on the socket: %q, %v", who, err)
	}
	if _, err := one(open("unix", sock, "app", "wrong"), "SELECT 1"); errNum(err) != 1045 {
		t.Fatalf("app with a wrong password on the socket: %v, want 1045", err)
	}
	a, err := one(rootSock, "SELECT CONNECTION_ID()")
	if err != nil {
		t.Fatal(err)
	}
	b, err := one(rootTCP, "SELECT CONNECTION_ID()")
	if err != nil || a == b {
		t.Fatalf("connection ids %s (socket) and %s (TCP), %v: want distinct", a, b, err)
	}

	// A regular file where the socket should go is an error, not removed.
	file := filepath.Join(dir, "not-a-socket")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if s2, err := server.New(newMemEngine(t), server.Config{Addr: "127.0.0.1:0", Socket: file}); err == nil {
		s2.Close()
		t.Fatal("a regular file in the socket's place was replaced")
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("the regular file is gone: %v", err)
	}
}
