package parse

import (
	"vitess.io/vitess/go/vt/sqlparser"
)

// KeysOnlyColumn names the placeholder column ctasKeysOnly adds; CREATE
// TABLE drops it again (internal/sql/ctas.go), and refuses a table that
// has no other column (1113).
const KeysOnlyColumn = "__strata_keys_only__"

// ctasKeysOnly repairs `CREATE TABLE t (UNIQUE (k), …) SELECT …`, a table
// definition of keys and constraints only (its columns come from the
// SELECT), and `CREATE TABLE t ENGINE=… SELECT …`, table options without
// a definition, which Vitess's grammar rejects: it needs a column first. A
// placeholder column is put before the first key (or the options).
func ctasKeysOnly(p *sqlparser.Parser, sql string) (string, bool) {
	tkn := p.NewStringTokenizer(sql)
	want := []int{sqlparser.CREATE, sqlparser.TABLE}
	for _, w := range want {
		if typ, _ := tkn.Scan(); typ != w {
			return sql, false
		}
	}
	typ, _ := tkn.Scan()
	if typ == sqlparser.IF {
		for _, w := range []int{sqlparser.NOT, sqlparser.EXISTS} {
			if typ, _ := tkn.Scan(); typ != w {
				return sql, false
			}
		}
		typ, _ = tkn.Scan()
	}
	if typ != sqlparser.ID {
		return sql, false
	}
	var val string
	if typ, val = tkn.Scan(); typ == '.' {
		if typ, _ = tkn.Scan(); typ != sqlparser.ID {
			return sql, false
		}
		typ, val = tkn.Scan()
	}
	if typ != '(' {
		// Table options without a definition: `CREATE TABLE t
		// ENGINE=InnoDB SELECT …`.
		switch typ {
		case sqlparser.ENGINE, sqlparser.DEFAULT, sqlparser.CHARSET, sqlparser.CHARACTER, sqlparser.COLLATE,
			sqlparser.COMMENT_KEYWORD, sqlparser.AUTO_INCREMENT, sqlparser.ROW_FORMAT:
			if at := tkn.Pos - len(val); at >= 0 {
				return sql[:at] + "(`" + KeysOnlyColumn + "` int) " + sql[at:], true
			}
		}
		return sql, false
	}
	at := tkn.Pos
	switch typ, _ := tkn.Scan(); typ {
	case sqlparser.PRIMARY, sqlparser.UNIQUE, sqlparser.KEY, sqlparser.INDEX, sqlparser.CONSTRAINT,
		sqlparser.FOREIGN, sqlparser.CHECK, sqlparser.FULLTEXT, sqlparser.SPATIAL:
	default:
		return sql, false
	}
	return sql[:at] + "`" + KeysOnlyColumn + "` int, " + sql[at:], true
}
