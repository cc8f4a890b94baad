package privilege

import (
	"strings"

	"github.com/strata-db/strata/internal/catalog"
)

// Grants is what an account holds at each level.
type Grants struct {
	Global Priv
	DB     map[string]Priv
	// Table is keyed by "db\x00table".
	Table map[string]Priv
	// Column is keyed by ColumnKey.
	Column map[string]Priv
}

// FromUser reads an account's grants from its catalog entry. The catalog
// stores privilege names; the legacy "ALL" entry means All(level) and the
// legacy account-wide grant_option flag means a global GRANT OPTION (what
// it conferred before grants recorded GRANT OPTION per level). Unknown names
// grant nothing.
func FromUser(u *catalog.User) Grants {
	g := Grants{Global: parseList(u.Global, Global)}
	if u.GrantOption {
		g.Global |= GrantOption
	}
	if len(u.DB) > 0 {
		g.DB = make(map[string]Priv, len(u.DB))
		for db, l := range u.DB {
			if p := parseList(l, Database); p != 0 {
				g.DB[db] = p
			}
		}
	}
	if len(u.Table) > 0 {
		g.Table = make(map[string]Priv, len(u.Table))
		for k, l := range u.Table {
			if p := parseList(l, Table); p != 0 {
				g.Table[k] = p
			}
		}
	}
	if len(u.Column) > 0 {
		g.Column = make(map[string]Priv, len(u.Column))
		for k, l := range u.Column {
			db, table, col := SplitColumnKey(k)
			if p := parseList(l, Table) & ColumnLevel; p != 0 {
				g.Column[ColumnKey(db, table, col)] |= p
			}
		}
	}
	return g
}

func parseList(l []string, level Level) Priv {
	var p Priv
	for _, n := range l {
		switch n {
		case "ALL", "ALL PRIVILEGES":
			p |= All(level)
		default:
			if x, ok := Parse(n); ok {
				p |= x
			}
		}
	}
	// A grant never holds more than its level allows.
	switch level {
	case Database:
		p &= DBLevel
	case Table:
		p &= TableLevel
	}
	return p
}

// TableKey is the key of Grants.Table.
func TableKey(db, table string) string { return db + "\x00" + table }

// OnDB is what the account holds on every table of db (global and database
// grants).
func (g *Grants) OnDB(db string) Priv { return g.Global | g.DB[db] }

// On is what the account holds on db.table (global, database and table
// grants).
func (g *Grants) On(db, table string) Priv {
	return g.Global | g.DB[db] | g.Table[TableKey(db, table)]
}

// AnyInDB reports whether the account holds some privilege in db: a
// database-level privilege (globally or on db) or a grant on one of its
// tables. MySQL lets such accounts USE db and see it in SHOW DATABASES.
func (g *Grants) AnyInDB(db string) bool {
	if g.OnDB(db)&DBLevel != 0 {
		return true
	}
	prefix := db + "\x00"
	for k, p := range g.Table {
		if p != 0 && strings.HasPrefix(k, prefix) {
			return true
		}
	}
	for k, p := range g.Column {
		if p != 0 && strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

// SeesTable reports whether the account holds some table privilege on
// db.table, or some privilege on one of its columns (what SHOW TABLES and
// information_schema need to list it).
func (g *Grants) SeesTable(db, table string) bool {
	return g.On(db, table)&TableLevel != 0 || g.ColumnPrivs(db, table) != 0
}
