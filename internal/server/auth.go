package server

import (
	"crypto/sha1"
	"crypto/sha256"
	"crypto/subtle"
	"net"

	"vitess.io/vitess/go/mysql"
	"vitess.io/vitess/go/mysql/sqlerror"
	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/catalog"
)

// authServer authenticates clients. root is built in (its password comes
// from the command line); other accounts live in the data dictionary
// (CREATE USER). Both mysql_native_password and caching_sha2_password are
// offered; the latter's full authentication needs TLS (no RSA exchange).
type authServer struct {
	rootPassword string
	cat          *catalog.Catalog
	methods      []mysql.AuthMethod
}

func newAuthServer(rootPassword string, cat *catalog.Catalog) *authServer {
	a := &authServer{rootPassword: rootPassword, cat: cat}
	a.methods = []mysql.AuthMethod{
		mysql.NewMysqlNativeAuthMethod(a, a),
		mysql.NewSha2CachingAuthMethod(a, a, a),
	}
	return a
}

// AuthMethods implements mysql.AuthServer.
func (a *authServer) AuthMethods() []mysql.AuthMethod { return a.methods }

// DefaultAuthMethodDescription implements mysql.AuthServer.
func (a *authServer) DefaultAuthMethodDescription() mysql.AuthMethodDescription {
	return mysql.MysqlNativePassword
}

// HandleUser implements mysql.UserValidator.
func (a *authServer) HandleUser(user string) bool { return true }

func hostOf(addr net.Addr) (string, bool) {
	if tcp, ok := addr.(*net.TCPAddr); ok {
		return tcp.IP.String(), tcp.IP.IsLoopback()
	}
	return "localhost", true
}

// socketRoot reports whether user is root connecting on the Unix socket
// from a local administrator's process (localAdmin): let in whatever
// password it sends, as auth_socket does.
func socketRoot(conn *mysql.Conn, user string) bool {
	return user == "root" && conn != nil && localAdmin(conn.GetRawConn())
}

// account returns the password hashes for user connecting on conn from
// addr (empty hashes: no password).
func (a *authServer) account(conn *mysql.Conn, user string, addr net.Addr) (native, sha2 []byte, ok bool) {
	if user == "root" {
		if a.rootPassword == "" {
			return nil, nil, true
		}
		h1 := sha1.Sum([]byte(a.rootPassword))
		h2 := sha1.Sum(h1[:])
		s1 := sha256.Sum256([]byte(a.rootPassword))
		s2 := sha256.Sum256(s1[:])
		return h2[:], s2[:], true
	}
	host, loop := hostOf(addr)
	u := a.cat.MatchUser(user, host, loop)
	if u == nil {
		return nil, nil, false
	}
	return u.NativeHash, u.Sha2Hash, true
}

// UserEntryWithHash implements mysql.HashStorage (mysql_native_password).
func (a *authServer) UserEntryWithHash(conn *mysql.Conn, salt []byte, user string, authResponse []byte, remoteAddr net.Addr) (mysql.Getter, error) {
	if socketRoot(conn, user) {
		return &userData{user: user}, nil
	}
	native, _, ok := a.account(conn, user, remoteAddr)
	if !ok {
		return nil, accessDenied(user, remoteAddr, len(authResponse) > 0)
	}
	if len(native) == 0 {
		if len(authResponse) != 0 {
			return nil, accessDenied(user, remoteAddr, true)
		}
		return &userData{user: user}, nil
	}
	if !mysql.VerifyHashedMysqlNativePassword(authResponse, salt, native) {
		return nil, accessDenied(user, remoteAddr, len(authResponse) > 0)
	}
	return &userData{user: user}, nil
}

// UserEntryWithCacheHash implements mysql.CachingStorage
// (caching_sha2_password fast authentication).
func (a *authServer) UserEntryWithCacheHash(conn *mysql.Conn, salt []byte, user string, authResponse []byte, remoteAddr net.Addr) (mysql.Getter, mysql.CacheState, error) {
	if socketRoot(conn, user) {
		return &userData{user: user}, mysql.AuthAccepted, nil
	}
	_, sha2, ok := a.account(conn, user, remoteAddr)
	if !ok {
		return nil, mysql.AuthRejected, accessDenied(user, remoteAddr, len(authResponse) > 0)
	}
	if len(sha2) == 0 {
		if len(authResponse) == 0 || (len(authResponse) == 1 && authResponse[0] == 0) {
			return &userData{user: user}, mysql.AuthAccepted, nil
		}
		return nil, mysql.AuthRejected, nil
	}
	if mysql.VerifyHashedCachingSha2Password(authResponse, salt, sha2) {
		return &userData{user: user}, mysql.AuthAccepted, nil
	}
	return nil, mysql.AuthNeedMoreData, nil
}

// UserEntryWithPassword implements mysql.PlainTextStorage (the full
// caching_sha2_password authentication, over TLS only).
func (a *authServer) UserEntryWithPassword(conn *mysql.Conn, user string, password string, remoteAddr net.Addr) (mysql.Getter, error) {
	if socketRoot(conn, user) {
		return &userData{user: user}, nil
	}
	_, sha2, ok := a.account(conn, user, remoteAddr)
	if !ok {
		return nil, accessDenied(user, remoteAddr, password != "")
	}
	s1 := sha256.Sum256([]byte(password))
	s2 := sha256.Sum256(s1[:])
	if (len(sha2) == 0 && password == "") || subtle.ConstantTimeCompare(s2[:], sha2) == 1 {
		return &userData{user: user}, nil
	}
	return nil, accessDenied(user, remoteAddr, password != "")
}

// clientHost is the host part of the account a client at addr logs in
// as: "localhost" for loopback and the Unix socket.
func clientHost(addr net.Addr) string {
	host, loop := hostOf(addr)
	if loop {
		host = "localhost"
	}
	return host
}

func accessDenied(user string, addr net.Addr, usingPassword bool) error {
	host := clientHost(addr)
	using := "NO"
	if usingPassword {
		using = "YES"
	}
	return sqlerror.NewSQLErrorf(sqlerror.ERAccessDeniedError, sqlerror.SSAccessDeniedError, "Access denied for user '%s'@'%s' (using password: %s)", user, host, using)
}

type userData struct{ user string }

// Get implements mysql.Getter.
func (u *userData) Get() *querypb.VTGateCallerID {
	return &querypb.VTGateCallerID{Username: u.user}
}
