package sql

import (
	"fmt"
	"sort"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Column grants: GRANT SELECT (a), UPDATE (b, c) ON db.t. The catalog keeps
// them per account, keyed db\x00table\x00column with the column spelled as
// the first GRANT of it spelled it (MySQL keeps the GRANT's spelling and
// compares column names without regard to case); SHOW GRANTS prints them on
// the table's line, as MySQL does.

// colGrant is one privilege of a GRANT/REVOKE given with a column list.
type colGrant struct {
	priv    privilege.Priv
	columns []string
}

// splitPrivItems splits a privilege list at the commas outside column
// lists.
func splitPrivItems(text string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, text[start:i])
				start = i + 1
			}
		}
	}
	return append(out, text[start:])
}

// parseColumnItem reads "SELECT (a, `b`)": the privilege must be one a
// column can hold (else a syntax error, as in MySQL's grammar).
func parseColumnItem(item string) (colGrant, error) {
	open := strings.IndexByte(item, '(')
	name := strings.ToUpper(strings.Join(strings.Fields(item[:open]), " "))
	p, ok := privilege.Parse(name)
	if !ok || p == 0 || p&^privilege.ColumnLevel != 0 || !strings.HasSuffix(strings.TrimSpace(item), ")") {
		return colGrant{}, sqlerr.Syntax(fmt.Sprintf("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s' at line 1", strings.TrimSpace(item)))
	}
	inner := strings.TrimSpace(item)
	inner = inner[strings.IndexByte(inner, '(')+1 : len(inner)-1]
	g := colGrant{priv: p}
	for _, c := range strings.Split(inner, ",") {
		c = strings.Trim(strings.TrimSpace(c), "`")
		if c == "" {
			return colGrant{}, sqlerr.Syntax("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near ')' at line 1")
		}
		g.columns = append(g.columns, c)
	}
	return g, nil
}

// resolveColumnGrants checks a GRANT/REVOKE's column lists against o: they
// need a table (1221 otherwise), the table must exist (1146) and so must
// each column (1054).
func (s *Session) resolveColumnGrants(cols []colGrant, o grantObject) error {
	if len(cols) == 0 {
		return nil
	}
	if o.level != privilege.Table {
		return sqlerr.New(sqlerror.ERWrongUsage, sqlerror.SSUnknownSQLState, "Incorrect usage of COLUMN GRANT and NON-COLUMN PRIVILEGES")
	}
	def := s.eng.Cat.Table(o.db, o.table)
	if def == nil {
		return sqlerr.NoTable(o.db, o.table)
	}
	for i := range cols {
		for _, c := range cols[i].columns {
			found := false
			for k := range def.Columns {
				if strings.EqualFold(def.Columns[k].Name, c) {
					found = true
					break
				}
			}
			if !found {
				return sqlerr.BadField(c, o.table)
			}
		}
	}
	return nil
}

// columnPrivs is the union of the privileges of a column list.
func columnPrivs(cols []colGrant) privilege.Priv {
	var p privilege.Priv
	for _, g := range cols {
		p |= g.priv
	}
	return p
}

// columnGrantKey is the catalog key of a column grant.
func columnGrantKey(db, table, column string) string {
	return db + "\x00" + table + "\x00" + column
}

// existingColumnKey returns the key under which u holds grants on a column,
// whatever the case it was granted in; a new key when none.
func existingColumnKey(u *catalog.User, db, table, column string) string {
	k := columnGrantKey(db, table, column)
	if _, ok := u.Column[k]; ok {
		return k
	}
	prefix := columnGrantKey(db, table, "")
	for x := range u.Column {
		if strings.HasPrefix(x, prefix) && strings.EqualFold(x[len(prefix):], column) {
			return x
		}
	}
	return k
}

// setColumnGrants adds (or removes) column grants of account u. A REVOKE
// of a column that holds no grant is 1147, as in MySQL. A table-level
// REVOKE of p (tablePrivs) also takes p from every column of the table, as
// MySQL's does.
func setColumnGrants(u *catalog.User, o grantObject, cols []colGrant, tablePrivs privilege.Priv, add bool) error {
	if o.level != privilege.Table {
		return nil
	}
	get := func(k string) privilege.Priv {
		p, _ := privilege.FromColumnList(u.Column[k])
		return p
	}
	put := func(k string, p privilege.Priv) {
		if p == 0 {
			delete(u.Column, k)
			return
		}
		if u.Column == nil {
			u.Column = map[string][]string{}
		}
		u.Column[k] = p.Names()
	}
	for _, g := range cols {
		for _, c := range g.columns {
			k := existingColumnKey(u, o.db, o.table, c)
			cur := get(k)
			if add {
				put(k, cur|g.priv)
				continue
			}
			if _, ok := u.Column[k]; !ok {
				return sqlerr.New(sqlerror.ERNonExistingTableGrant, sqlerror.SSClientError, "There is no such grant defined for user '%s' on host '%s' on table '%s'", u.Name, u.Host, o.table)
			}
			put(k, cur&^g.priv)
		}
	}
	if !add && tablePrivs&privilege.ColumnLevel != 0 {
		prefix := columnGrantKey(o.db, o.table, "")
		for k := range u.Column {
			if strings.HasPrefix(k, prefix) {
				put(k, get(k)&^tablePrivs)
			}
		}
	}
	return nil
}

// tableGrantLine is SHOW GRANTS' line for one table: its table privileges,
// each followed by the columns holding it ("SELECT, SELECT (`a`)" when both
// levels hold it, as MySQL prints it); ALL PRIVILEGES when the table holds
// every table privilege. cols maps each column to its privileges.
func tableGrantLine(p privilege.Priv, cols map[string]privilege.Priv, on, who string) string {
	var sb strings.Builder
	sb.WriteString("GRANT ")
	held := p &^ privilege.GrantOption
	if held == privilege.All(privilege.Table) {
		sb.WriteString("ALL PRIVILEGES")
	} else {
		names := make([]string, 0, len(cols))
		for c := range cols {
			names = append(names, c)
		}
		sort.Slice(names, func(i, j int) bool { return strings.ToLower(names[i]) < strings.ToLower(names[j]) })
		first := true
		for bit := privilege.Priv(1); bit <= privilege.TableLevel; bit <<= 1 {
			var withCol []string
			for _, c := range names {
				if cols[c]&bit != 0 {
					withCol = append(withCol, "`"+c+"`")
				}
			}
			if held&bit == 0 && len(withCol) == 0 {
				continue
			}
			if !first {
				sb.WriteString(", ")
			}
			first = false
			name := strings.Join(bit.Names(), "")
			if held&bit != 0 {
				sb.WriteString(name)
				if len(withCol) > 0 {
					sb.WriteString(", ")
				}
			}
			if len(withCol) > 0 {
				sb.WriteString(name + " (" + strings.Join(withCol, ", ") + ")")
			}
		}
		if first {
			sb.WriteString("USAGE")
		}
	}
	sb.WriteString(" ON " + on + " TO " + who)
	if p.Has(privilege.GrantOption) {
		sb.WriteString(" WITH GRANT OPTION")
	}
	return sb.String()
}

// tableGrantLines lists SHOW GRANTS' table lines of account u, ordered by
// database and table.
func tableGrantLines(u *catalog.User, g privilege.Grants, who string) [][]string {
	type tcols struct {
		p    privilege.Priv
		cols map[string]privilege.Priv
	}
	tables := map[string]*tcols{}
	at := func(k string) *tcols {
		t := tables[k]
		if t == nil {
			t = &tcols{cols: map[string]privilege.Priv{}}
			tables[k] = t
		}
		return t
	}
	for k, p := range g.Table {
		at(k).p = p
	}
	for k, l := range u.Column {
		db, table, col := privilege.SplitColumnKey(k)
		if p, _ := privilege.FromColumnList(l); p != 0 {
			at(privilege.TableKey(db, table)).cols[col] |= p
		}
	}
	keys := make([]string, 0, len(tables))
	for k := range tables {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var rows [][]string
	for _, k := range keys {
		db, t, _ := strings.Cut(k, "\x00")
		rows = append(rows, []string{tableGrantLine(tables[k].p, tables[k].cols, "`"+db+"`.`"+t+"`", who)})
	}
	return rows
}
