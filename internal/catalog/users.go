package catalog

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// User is an account: a name, a host pattern and its privileges. Passwords
// are never stored in clear: the mysql_native_password hash
// SHA1(SHA1(password)) and the caching_sha2_password cache hash
// SHA256(SHA256(password)) are kept.
type User struct {
	Name string `json:"name"`
	Host string `json:"host"`
	// Plugin is the default authentication plugin of the account.
	Plugin     string `json:"plugin"`
	NativeHash []byte `json:"native_hash,omitempty"`
	Sha2Hash   []byte `json:"sha2_hash,omitempty"`
	// Global privileges (upper case: SELECT, INSERT, …, or ALL).
	Global []string            `json:"global,omitempty"`
	DB     map[string][]string `json:"db,omitempty"`
	Table  map[string][]string `json:"table,omitempty"` // key "db\x00table"
	// Column privileges (SELECT, INSERT, UPDATE, REFERENCES), keyed
	// "db\x00table\x00column" with the column spelled as its definition
	// spells it.
	Column      map[string][]string `json:"column,omitempty"`
	GrantOption bool                `json:"grant_option,omitempty"`
}

// SetPassword stores the password hashes of pw ("" = no password).
func (u *User) SetPassword(pw string) {
	if pw == "" {
		u.NativeHash, u.Sha2Hash = nil, nil
		return
	}
	h1 := sha1.Sum([]byte(pw))
	h2 := sha1.Sum(h1[:])
	u.NativeHash = h2[:]
	s1 := sha256.Sum256([]byte(pw))
	s2 := sha256.Sum256(s1[:])
	u.Sha2Hash = s2[:]
}

// HasPassword reports whether the account has a password.
func (u *User) HasPassword() bool { return len(u.NativeHash) > 0 }

// AuthString is the mysql.user authentication_string MySQL shows for a
// mysql_native_password account.
func (u *User) AuthString() string {
	if !u.HasPassword() {
		return ""
	}
	return fmt.Sprintf("*%X", u.NativeHash)
}

func hasPriv(list []string, p string) bool {
	for _, x := range list {
		if x == p || x == "ALL" || x == "ALL PRIVILEGES" {
			return true
		}
	}
	return false
}

// Allowed reports whether the account holds privilege p on db.table
// (table "" for database-level operations).
func (u *User) Allowed(p, db, table string) bool {
	if hasPriv(u.Global, p) {
		return true
	}
	if db != "" && hasPriv(u.DB[db], p) {
		return true
	}
	if db != "" && table != "" && hasPriv(u.Table[db+"\x00"+table], p) {
		return true
	}
	return false
}

// AnyOn reports whether the account holds any privilege on db (for USE).
func (u *User) AnyOn(db string) bool {
	if len(u.Global) > 0 || len(u.DB[db]) > 0 {
		return true
	}
	for k, v := range u.Table {
		if strings.HasPrefix(k, db+"\x00") && len(v) > 0 {
			return true
		}
	}
	return false
}

// Clone returns a deep copy.
func (u *User) Clone() *User {
	n := *u
	n.Global = append([]string(nil), u.Global...)
	n.DB = map[string][]string{}
	for k, v := range u.DB {
		n.DB[k] = append([]string(nil), v...)
	}
	n.Table = map[string][]string{}
	for k, v := range u.Table {
		n.Table[k] = append([]string(nil), v...)
	}
	n.Column = nil
	if len(u.Column) > 0 {
		n.Column = make(map[string][]string, len(u.Column))
		for k, v := range u.Column {
			n.Column[k] = append([]string(nil), v...)
		}
	}
	return &n
}

func userKey(name, host string) string { return name + "\x00" + host }

// Users returns all accounts sorted by name and host.
func (c *Catalog) Users() []*User {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]*User, 0, len(c.mu.users))
	for _, u := range c.mu.users {
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Host < out[j].Host
	})
	return out
}

// User returns the account name@host (exact host string) or nil.
func (c *Catalog) User(name, host string) *User {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.users[userKey(name, host)]
}

// MatchUser finds the account for a user connecting from addr: an exact
// host match first, then 'localhost' for loopback clients, then the most
// specific pattern, '%' last.
func (c *Catalog) MatchUser(name, addr string, loopback bool) *User {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var best *User
	bestScore := -1
	for _, u := range c.mu.users {
		if u.Name != name {
			continue
		}
		score := -1
		switch {
		case u.Host == addr:
			score = 100
		case loopback && (u.Host == "localhost" || u.Host == "127.0.0.1" || u.Host == "::1"):
			score = 90
		case u.Host == "%":
			score = 1
		case likeHost(u.Host, addr):
			score = 50
		}
		if score > bestScore {
			best, bestScore = u, score
		}
	}
	return best
}

// likeHost matches a host pattern with % and _ wildcards.
func likeHost(pattern, s string) bool {
	if pattern == "" {
		return false
	}
	var match func(p, t string) bool
	match = func(p, t string) bool {
		for len(p) > 0 {
			switch p[0] {
			case '%':
				for i := 0; i <= len(t); i++ {
					if match(p[1:], t[i:]) {
						return true
					}
				}
				return false
			case '_':
				if len(t) == 0 {
					return false
				}
			default:
				if len(t) == 0 || t[0] != p[0] {
					return false
				}
			}
			p, t = p[1:], t[1:]
		}
		return len(t) == 0
	}
	return match(pattern, s)
}

// PutUser creates or replaces an account.
func (d *DDL) PutUser(u *User) error {
	v, err := json.Marshal(u)
	if err != nil {
		return fmt.Errorf("encode user: %w", err)
	}
	if err := d.b.Set(dictKey('U', u.Name, u.Host), v); err != nil {
		return err
	}
	d.putUsers = append(d.putUsers, u)
	return nil
}

// DropUser removes an account.
func (d *DDL) DropUser(name, host string) error {
	if err := d.b.Delete(dictKey('U', name, host)); err != nil {
		return err
	}
	d.dropUsers = append(d.dropUsers, userKey(name, host))
	return nil
}
