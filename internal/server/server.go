package server

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"vitess.io/vitess/go/mysql"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/vtenv"

	"github.com/strata-db/strata/internal/sql"
)

// Config configures the protocol server.
type Config struct {
	// Addr is host:port to listen on.
	Addr string
	// RootPassword is root's password ("" allowed only on loopback; the
	// caller enforces that rule).
	RootPassword string
	// TLSCert and TLSKey are PEM files; when set, clients may use TLS.
	TLSCert, TLSKey string
	// Socket is the path of a Unix socket to listen on as well ("" for
	// none). Clients on it connect as from localhost; root may log in on
	// it without a password from a process running as the OS's root or
	// as the server's own user (as MySQL packages' auth_socket root does).
	Socket string
}

// Server is a running MySQL protocol server.
type Server struct {
	eng      *sql.Engine
	listener *mysql.Listener
	handler  *handler
	wg       sync.WaitGroup
}

// New creates a server listening on cfg.Addr.
func New(eng *sql.Engine, cfg Config) (*Server, error) {
	auth := newAuthServer(cfg.RootPassword, eng.Cat)
	h := &handler{eng: eng, auth: auth, sessions: map[uint32]*sql.Session{}}
	tcp, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	all := []net.Listener{tcp}
	if cfg.Socket != "" {
		unix, err := listenUnix(cfg.Socket)
		if err != nil {
			_ = tcp.Close()
			return nil, err
		}
		all = append(all, unix)
	}
	l, err := mysql.NewListenerWithConfig(mysql.ListenerConfig{
		Listener:           mergeListeners(all...),
		AuthServer:         auth,
		Handler:            h,
		ConnReadBufferSize: 16 * 1024,
		// FlushDelay batches small writes of a result; a streamed result
		// goes out as its write buffer fills, and every command's reply is
		// flushed at its end anyway.
		FlushDelay:          100 * time.Millisecond,
		ConnKeepAlivePeriod: keepAlivePeriod,
		// COM_QUERY through ComQueryMulti, the one callback that can end a
		// result with an error after some of its rows (see ComQueryMulti).
		MultiQuery: true,
	})
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	l.ServerVersion = sql.ServerVersion
	if cfg.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(cfg.TLSCert, cfg.TLSKey)
		if err != nil {
			l.Close()
			return nil, fmt.Errorf("load TLS certificate: %w", err)
		}
		l.TLSConfig.Store(&tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
		eng.Globals.Set("have_ssl", sqltypes.NewVarChar("YES"))
		eng.Globals.Set("have_openssl", sqltypes.NewVarChar("YES"))
	}
	return &Server{eng: eng, listener: l, handler: h}, nil
}

// Addr returns the listening address.
func (s *Server) Addr() net.Addr { return s.listener.Addr() }

// Serve accepts connections until Close.
func (s *Server) Serve() {
	s.wg.Add(1)
	defer s.wg.Done()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		// wait_timeout: close connections idle for too long.
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case now := <-t.C:
				s.eng.ReapIdle(now)
			}
		}
	}()
	s.listener.Accept()
}

// Close stops accepting connections and closes open ones.
func (s *Server) Close() {
	s.listener.Close()
	s.handler.closeAll()
	s.wg.Wait()
}

// handler implements mysql.Handler.
type handler struct {
	mysql.UnimplementedHandler
	eng  *sql.Engine
	auth *authServer

	// accepted counts open TCP connections (for max_connections).
	accepted atomic.Int64

	mu       sync.Mutex
	sessions map[uint32]*sql.Session
	conns    map[uint32]*mysql.Conn

	// dumps holds the cancel functions of running binlog dumps
	// (binlog_dump.go).
	dumps sync.Map
}

func (h *handler) Env() *vtenv.Environment { return h.eng.Env }

func (h *handler) NewConnection(c *mysql.Conn) {
	if cc, ok := c.GetRawConn().(*cmdConn); ok {
		cc.serve = func(cc *cmdConn, cmd byte, payload []byte) error { return h.serveCommand(c, cc, cmd, payload) }
	}
	c.StatusFlags |= mysql.ServerStatusAutocommit
	n := h.accepted.Add(1)
	if max := h.eng.MaxConnections(); max > 0 && n > max {
		// MySQL answers with error 1040 instead of the handshake.
		c.ClientData = rejected{}
		_ = c.WriteErrorPacketFromError(sqlerror.NewSQLError(sqlerror.ERConCount, "08004", "Too many connections"))
		c.Close()
	}
}

// rejected marks a connection refused by max_connections.
type rejected struct{}

func (h *handler) session(c *mysql.Conn) *sql.Session { return h.conn(c).s }

// conn returns the connection's state, creating its session on first use.
func (h *handler) conn(c *mysql.Conn) *conn {
	if cs, ok := c.ClientData.(*conn); ok {
		return cs
	}
	if _, no := c.ClientData.(rejected); no {
		// A rejected connection never gets here (it is closed), but be safe.
		c.Close()
	}
	s := h.eng.NewSession(c.User, clientHost(c.RemoteAddr()))
	s.SetConnID(c.ConnectionID)
	s.OnKill = c.Close
	s.SetClientFoundRows(c.Capabilities&mysql.CapabilityClientFoundRows != 0)
	s.SetHandshakeCollation(uint8(c.CharacterSet))
	if cc, ok := c.GetRawConn().(*cmdConn); ok {
		s.SetLocalFiles(&localFiles{c: c, cc: cc}, cc.clientCaps&clientLocalFiles != 0)
	}
	cs := newConn(c, s)
	s.OnNextResult = cs.nextResult
	c.ClientData = cs
	h.mu.Lock()
	h.sessions[c.ConnectionID] = s
	if h.conns == nil {
		h.conns = map[uint32]*mysql.Conn{}
	}
	h.conns[c.ConnectionID] = c
	h.mu.Unlock()
	h.eng.Connected(1)
	return cs
}

func (h *handler) ConnectionReady(c *mysql.Conn) {
	if _, no := c.ClientData.(rejected); no {
		return
	}
	h.session(c)
}

// checkPacket enforces max_allowed_packet on a statement (error 1153; the
// connection is closed afterwards, as MySQL does).
func (h *handler) checkPacket(c *mysql.Conn, query string) error {
	if max := h.eng.MaxAllowedPacket(); max > 0 && int64(len(query)) > max {
		c.MarkForClose()
		return sqlerror.NewSQLError(sqlerror.ERNetPacketTooLarge, "08S01", "Got a packet bigger than 'max_allowed_packet' bytes")
	}
	return nil
}

func (h *handler) ConnectionClosed(c *mysql.Conn) {
	h.accepted.Add(-1)
	cs, ok := c.ClientData.(*conn)
	if !ok {
		return
	}
	cs.s.Close()
	h.mu.Lock()
	delete(h.sessions, c.ConnectionID)
	delete(h.conns, c.ConnectionID)
	h.mu.Unlock()
	h.eng.Connected(-1)
}

func (h *handler) closeAll() {
	h.cancelDumps()
	h.mu.Lock()
	conns := make([]*mysql.Conn, 0, len(h.conns))
	for _, c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}

func setStatus(c *mysql.Conn, s *sql.Session) {
	flags := c.StatusFlags &^ (mysql.ServerStatusAutocommit | mysql.ServerStatusInTrans)
	if s.Autocommit() {
		flags |= mysql.ServerStatusAutocommit
	}
	if s.InTransaction() {
		flags |= mysql.ServerStatusInTrans
	}
	c.StatusFlags = flags
}

// ComQuery runs a statement Vitess sends on its own (COM_INIT_DB's USE);
// clients' COM_QUERY arrive through ComQueryMulti.
func (h *handler) ComQuery(c *mysql.Conn, query string, callback func(*sqltypes.Result) error) error {
	cs := h.conn(c)
	if err := h.checkPacket(c, query); err != nil {
		return err
	}
	cs.start(nil, callback, false)
	return cs.endOnly(cs.s.QueryStream(context.Background(), cs.s.DecodeQuery(query), cs.sendFn))
}

var errEmptyQuery = sqlerror.NewSQLError(sqlerror.EREmptyQuery, sqlerror.SSClientError, "Query was empty")

// ComQueryMulti runs the statements of a COM_QUERY (several with
// CLIENT_MULTI_STATEMENTS, split as Vitess's own COM_QUERY handling does),
// streaming each result. Through this callback an error can follow rows
// already sent, as MySQL does: the client gets the rows, then the error
// packet, and the connection stays usable. The statements after a failed
// one are not run.
//
// Vitess writes the end of a result set when the next statement's first
// packet comes, so the warning count and status flags of that end packet
// must be the earlier statement's while the session has moved on: Vitess
// asks WarningCount for the count just before it reads c.StatusFlags for
// the end packet, and WarningCount answers conn.pendingWarnings and puts
// back conn.pendingFlags then. (The next statement's OK packet, written in
// the same call, took its flags from c.StatusFlags before.)
func (h *handler) ComQueryMulti(c *mysql.Conn, query string, callback func(qr sqltypes.QueryResponse, more bool, firstPacket bool) error) error {
	cs := h.conn(c)
	if err := h.checkPacket(c, query); err != nil {
		return err
	}
	cs.pendingWarnings = -1
	query = cs.s.DecodeQuery(query)
	queries := []string{query}
	if c.Capabilities&mysql.CapabilityClientMultiStatements != 0 {
		var err error
		if queries, err = h.eng.SplitStatements(query); err != nil {
			return err
		}
		if len(queries) == 0 {
			return errEmptyQuery
		}
	}
	for i, q := range queries {
		cs.start(callback, nil, i < len(queries)-1)
		err := cs.s.QueryStream(context.Background(), q, cs.sendFn)
		if err != nil {
			if i == 0 && !cs.sent {
				setStatus(c, cs.s)
				return err // nothing sent: Vitess writes the error packet
			}
			// Vitess writes the previous result's end packet first when
			// this statement sent nothing.
			setStatus(c, cs.s)
			return callback(sqltypes.QueryResponse{QueryError: err}, false, cs.first)
		}
		setStatus(c, cs.s)
		if cs.resultSet && cs.more {
			cs.pendingWarnings = int(cs.s.WarningCount())
			cs.pendingFlags = c.StatusFlags
		}
	}
	return nil
}

func (h *handler) ComPrepare(c *mysql.Conn, query string) ([]*querypb.Field, uint16, error) {
	s := h.session(c)
	if err := h.checkPacket(c, query); err != nil {
		return nil, 0, err
	}
	n, fields, err := s.Prepare(context.Background(), s.DecodeQuery(query))
	if err != nil {
		return nil, 0, err
	}
	return fields, n, nil
}

func (h *handler) ComStmtExecute(c *mysql.Conn, prepare *mysql.PrepareData, callback func(*sqltypes.Result) error) error {
	cs := h.conn(c)
	cs.start(nil, callback, false)
	decodeParams(cs.s, prepare.BindVars)
	return cs.endOnly(cs.s.ExecutePreparedStream(context.Background(), cs.s.DecodeQuery(prepare.PrepareStmt), prepare.BindVars, cs.sendFn))
}

func (h *handler) WarningCount(c *mysql.Conn) uint16 {
	if cs, ok := c.ClientData.(*conn); ok {
		if w := cs.pendingWarnings; w >= 0 {
			// The end packet of the previous statement's result set
			// (ComQueryMulti): Vitess reads its flags next.
			cs.pendingWarnings = -1
			c.StatusFlags = cs.pendingFlags
			return uint16(w)
		}
		return cs.s.WarningCount()
	}
	return 0
}

func (h *handler) ComResetConnection(c *mysql.Conn) {
	if cs, ok := c.ClientData.(*conn); ok {
		cs.s.ResetConnection()
		setStatus(c, cs.s)
	}
}
