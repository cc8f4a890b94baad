package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"time"

	"vitess.io/vitess/go/mysql"
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// nativePassword is the authentication method COM_CHANGE_USER switches the
// client to: accounts keep a mysql_native_password hash beside the
// caching_sha2_password one, and every client that sends COM_CHANGE_USER
// answers an authentication switch.
const nativePassword = "mysql_native_password"

// changeUserTimeout bounds the session work of a COM_CHANGE_USER.
const changeUserTimeout = 30 * time.Second

// serveCommand answers a command cmdConn took out of the stream of Vitess
// connection vc. An error ends the connection.
func (h *handler) serveCommand(vc *mysql.Conn, c *cmdConn, cmd byte, payload []byte) error {
	switch cmd {
	case comStatistics:
		return c.writePacket(1, []byte(h.eng.StatisticsLine()))
	case comChangeUser:
		return h.changeUser(vc, c, payload)
	}
	return c.writeErr(1, sqlerror.ERUnknownComError, sqlerror.SSNetError, "Unknown command")
}

// changeUserRequest is a parsed COM_CHANGE_USER.
type changeUserRequest struct {
	user, db string
	charset  uint8 // the collation the client asks for; 0 when not sent
}

// parseChangeUser parses a COM_CHANGE_USER payload (command byte
// included): the user, the authentication response (ignored: the
// exchange restarts with an authentication switch and a fresh scramble),
// the database, the collation id; the plugin name and connection
// attributes that may follow are not needed.
func parseChangeUser(p []byte, caps uint32) (changeUserRequest, bool) {
	var r changeUserRequest
	p = p[1:]
	i := bytes.IndexByte(p, 0)
	if i < 0 {
		return r, false
	}
	r.user, p = string(p[:i]), p[i+1:]
	if caps&mysql.CapabilityClientSecureConnection != 0 {
		if len(p) < 1 || len(p) < 1+int(p[0]) {
			return r, false
		}
		p = p[1+int(p[0]):]
	} else {
		i = bytes.IndexByte(p, 0)
		if i < 0 {
			return r, false
		}
		p = p[i+1:]
	}
	if len(p) == 0 {
		return r, true
	}
	i = bytes.IndexByte(p, 0)
	if i < 0 {
		r.db = string(p)
		return r, true
	}
	r.db, p = string(p[:i]), p[i+1:]
	if len(p) >= 2 {
		r.charset = p[0] // a two-byte collation id; MySQL's ids fit the low byte
	}
	return r, true
}

// changeUser serves COM_CHANGE_USER: the client proves the new account's
// password in an authentication switch to mysql_native_password with a
// fresh scramble; on success the session is reset (as COM_RESET_CONNECTION
// does: transaction rolled back, variables cleared, prepared statements
// closed) and acts as the new account on the requested database. A failed
// authentication is answered with 1045 and ends the connection, as MySQL
// does.
func (h *handler) changeUser(vc *mysql.Conn, c *cmdConn, payload []byte) error {
	req, ok := parseChangeUser(payload, c.clientCaps)
	if !ok {
		_ = c.writeErr(1, sqlerr.NetReadError, sqlerror.SSNetError, "Got an error reading communication packets")
		return errors.New("malformed COM_CHANGE_USER")
	}
	salt := make([]byte, 20)
	if _, err := rand.Read(salt); err != nil {
		return err
	}
	// Scramble bytes are printable and never NUL, as the handshake's.
	for i := range salt {
		salt[i] = salt[i]&0x7f | 0x01
		if salt[i] == '$' {
			salt[i] = '%'
		}
	}
	sw := append([]byte{0xfe}, nativePassword...)
	sw = append(sw, 0)
	sw = append(sw, salt...)
	sw = append(sw, 0)
	if err := c.writePacket(1, sw); err != nil {
		return err
	}
	resp, err := c.readFrom()
	if err != nil {
		return err
	}
	if _, err := h.auth.UserEntryWithHash(vc, salt, req.user, resp, vc.RemoteAddr()); err != nil {
		_ = c.writeError(3, err, sqlerror.ERAccessDeniedError, sqlerror.SSAccessDeniedError)
		return errors.New("COM_CHANGE_USER: authentication failed")
	}
	cs := h.conn(vc)
	ctx, cancel := context.WithTimeout(context.Background(), changeUserTimeout)
	defer cancel()
	dbErr := cs.s.ChangeUser(ctx, req.user, clientHost(vc.RemoteAddr()), req.db)
	if req.charset != 0 {
		vc.CharacterSet = collations.ID(req.charset)
	}
	cs.s.SetHandshakeCollation(uint8(vc.CharacterSet))
	vc.User = req.user
	vc.UserData = &userData{user: req.user}
	vc.PrepareData = map[uint32]*mysql.PrepareData{}
	setStatus(vc, cs.s)
	if dbErr != nil {
		return c.writeError(3, dbErr, sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState)
	}
	return c.writeOK(3, vc.StatusFlags)
}
