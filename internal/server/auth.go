package server

import (
	"bytes"
	"crypto/subtle"
	"net"
	"sync"

	"vitess.io/vitess/go/mysql"
	"vitess.io/vitess/go/mysql/sqlerror"
	querypb "vitess.io/vitess/go/vt/proto/query"
)

// authServer authenticates users with mysql_native_password against an
// in-memory user table.
type authServer struct {
	mu    sync.RWMutex
	users map[string]string // user -> plain password
	// loopbackOnly: the server listens only on loopback, so root with an
	// empty password is acceptable.
	methods []mysql.AuthMethod
}

func newAuthServer(rootPassword string) *authServer {
	a := &authServer{users: map[string]string{"root": rootPassword}}
	a.methods = []mysql.AuthMethod{mysql.NewMysqlNativeAuthMethod(a, a)}
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

// UserEntryWithHash implements mysql.HashStorage.
func (a *authServer) UserEntryWithHash(conn *mysql.Conn, salt []byte, user string, authResponse []byte, remoteAddr net.Addr) (mysql.Getter, error) {
	a.mu.RLock()
	pw, ok := a.users[user]
	a.mu.RUnlock()
	if !ok {
		return nil, accessDenied(user, remoteAddr, len(authResponse) > 0)
	}
	if pw == "" {
		if len(authResponse) != 0 {
			return nil, accessDenied(user, remoteAddr, true)
		}
		return &userData{user: user}, nil
	}
	want := mysql.ScrambleMysqlNativePassword(salt, []byte(pw))
	if len(authResponse) == 0 || subtle.ConstantTimeCompare(bytes.TrimRight(authResponse, "\x00"), want) != 1 {
		return nil, accessDenied(user, remoteAddr, len(authResponse) > 0)
	}
	return &userData{user: user}, nil
}

func accessDenied(user string, addr net.Addr, usingPassword bool) error {
	host := "localhost"
	if tcp, ok := addr.(*net.TCPAddr); ok {
		host = tcp.IP.String()
	}
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
