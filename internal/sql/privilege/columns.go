package privilege

import "strings"

// Column privileges. MySQL grants SELECT, INSERT, UPDATE and REFERENCES on
// single columns (GRANT SELECT (a), UPDATE (b) ON db.t). A statement then
// needs the privilege on every column it reads or writes, unless the
// account holds it on the table or above; holding it on some column of a
// table is enough to pass the table-level check, after which each column
// is checked (1143).

// ColumnLevel is what a column grant may hold: MySQL's COL_ACLS.
const ColumnLevel = Select | Insert | Update | References

// ColumnKey is the key of Grants.Column: the column in lower case, as MySQL
// compares column names without regard to case.
func ColumnKey(db, table, column string) string {
	return db + "\x00" + table + "\x00" + strings.ToLower(column)
}

// SplitColumnKey splits a catalog column-grant key into its parts.
func SplitColumnKey(k string) (db, table, column string) {
	db, rest, _ := strings.Cut(k, "\x00")
	table, column, _ = strings.Cut(rest, "\x00")
	return db, table, column
}

// OnColumn is what the account holds on one column of db.table: the
// table's privileges and the column's own.
func (g *Grants) OnColumn(db, table, column string) Priv {
	return g.On(db, table) | g.Column[ColumnKey(db, table, column)]
}

// ColumnPrivs is the union of the account's grants on the columns of
// db.table.
func (g *Grants) ColumnPrivs(db, table string) Priv {
	if len(g.Column) == 0 {
		return 0
	}
	var p Priv
	prefix := TableKey(db, table) + "\x00"
	for k, c := range g.Column {
		if strings.HasPrefix(k, prefix) {
			p |= c
		}
	}
	return p
}

// SeesColumn reports whether the account holds some column privilege
// (SELECT, INSERT, UPDATE, REFERENCES) on a column, on the table or above
// or on the column itself: what information_schema needs to list it (MySQL's
// CAN_ACCESS_COLUMN).
func (g *Grants) SeesColumn(db, table, column string) bool {
	return g.OnColumn(db, table, column)&ColumnLevel != 0
}

// OnColumns is the need for p on one column of db.table, refused with 1143
// naming the column.
func OnColumns(p Priv, db, table, column string) Need {
	return Need{Level: Table, Privs: p, DB: db, Table: table, Column: column, Deny: DenyTable}
}

// FromColumnList reads a column grant's privilege names from the catalog;
// ok is false when a name is unknown or cannot be held by a column.
func FromColumnList(l []string) (p Priv, ok bool) {
	ok = true
	for _, n := range l {
		x, known := Parse(n)
		if !known || x&^ColumnLevel != 0 {
			ok = false
			continue
		}
		p |= x
	}
	return p, ok
}

// ColumnPrivText is the Privileges of SHOW FULL COLUMNS and
// information_schema.COLUMNS: the column privileges held on a column
// ("select,insert,update,references"), lower case, in MySQL's order; ok is
// false when the account holds none of them on the column (nor on its
// table), which is then not listed. A nil subject (root) holds them all.
func (s *Subject) ColumnPrivText(db, table, column string) (text string, ok bool) {
	if s == nil {
		return "select,insert,update,references", true
	}
	if !s.Grants.SeesColumn(db, table, column) {
		return "", false
	}
	held := s.Grants.OnColumn(db, table, column)
	return strings.ToLower(strings.Join((held & ColumnLevel).Names(), ",")), true
}
