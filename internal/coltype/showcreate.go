package coltype

import (
	"sort"
	"strconv"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

// ShowCreateTable renders SHOW CREATE TABLE in MySQL 8.0's format. Every
// table reports ENGINE=InnoDB (strata's LSM engine, as MyRocks prints it).
// autoInc is the next AUTO_INCREMENT value to print (0 = omit). A hidden
// primary key is not shown.
func ShowCreateTable(t *catalog.Table, autoInc uint64) string {
	tcoll := t.Collation
	if tcoll == collations.Unknown {
		tcoll = DefaultCollation
	}
	b := make([]byte, 0, 256)
	b = append(b, "CREATE TABLE "...)
	b = appendIdent(b, t.Name)
	b = append(b, " (\n"...)
	first := true
	sep := func() {
		if !first {
			b = append(b, ",\n"...)
		}
		first = false
	}
	for i := range t.Columns {
		sep()
		b = appendColumn(b, &t.Columns[i], tcoll)
	}
	for _, ix := range orderedIndexes(t) {
		sep()
		b = appendIndex(b, t, ix)
	}
	for _, fk := range t.ForeignKeys {
		sep()
		b = append(b, "  "...)
		b = append(b, fk...)
	}
	for i := range t.Checks {
		ck := &t.Checks[i]
		sep()
		b = append(b, "  CONSTRAINT "...)
		b = appendIdent(b, ck.Name)
		b = append(b, " CHECK ("...)
		b = append(b, ck.Clause...)
		b = append(b, ')')
		if ck.NotEnforced {
			b = append(b, " /*!80016 NOT ENFORCED */"...)
		}
	}
	b = append(b, "\n) ENGINE=InnoDB"...)
	if autoInc > 0 {
		b = append(b, " AUTO_INCREMENT="...)
		b = strconv.AppendUint(b, autoInc, 10)
	}
	cs := t.Charset
	if cs == "" || CharsetName(tcoll) != normCharset(cs) {
		cs = CharsetName(tcoll)
	}
	b = append(b, " DEFAULT CHARSET="...)
	b = append(b, cs...)
	b = append(b, " COLLATE="...)
	b = append(b, CollationName(tcoll)...)
	if t.Comment != "" {
		b = append(b, " COMMENT="...)
		b = appendString(b, t.Comment)
	}
	return string(b)
}

// orderedIndexes lists the visible indexes as MySQL orders them: primary
// key, unique keys, then the others, each group in definition order.
func orderedIndexes(t *catalog.Table) []*catalog.Index {
	out := make([]*catalog.Index, 0, len(t.Indexes))
	for k, ix := range t.Indexes {
		if k == 0 && t.HiddenPK {
			continue
		}
		out = append(out, ix)
	}
	rank := func(ix *catalog.Index) int {
		switch {
		case ix.Primary:
			return 0
		case ix.Unique:
			return 1
		}
		return 2
	}
	sort.SliceStable(out, func(a, b int) bool { return rank(out[a]) < rank(out[b]) })
	return out
}

func appendColumn(b []byte, col *catalog.Column, tcoll collations.ID) []byte {
	b = append(b, "  "...)
	b = appendIdent(b, col.Name)
	b = append(b, ' ')
	b = appendType(b, col)
	if col.IsText() || col.Type == sqltypes.Enum || col.Type == sqltypes.Set {
		if CharsetName(col.Collation) != CharsetName(tcoll) {
			b = append(b, " CHARACTER SET "...)
			b = append(b, CharsetName(col.Collation)...)
			b = append(b, " COLLATE "...)
			b = append(b, CollationName(col.Collation)...)
		} else if col.Collation != tcoll {
			b = append(b, " COLLATE "...)
			b = append(b, CollationName(col.Collation)...)
		}
	}
	if col.Generated != "" {
		// MySQL 8.0: GENERATED ALWAYS AS ((expr)) VIRTUAL|STORED, then
		// NOT NULL or NULL as declared, no default.
		b = append(b, " GENERATED ALWAYS AS ("...)
		b = append(b, col.Generated...)
		b = append(b, ')')
		if col.GeneratedStored {
			b = append(b, " STORED"...)
		} else {
			b = append(b, " VIRTUAL"...)
		}
		if !col.Nullable {
			b = append(b, " NOT NULL"...)
		}
		if col.Comment != "" {
			b = append(b, " COMMENT "...)
			b = appendString(b, col.Comment)
		}
		return b
	}
	if !col.Nullable {
		b = append(b, " NOT NULL"...)
	} else if col.Type == sqltypes.Timestamp {
		b = append(b, " NULL"...)
	}
	switch {
	case col.HasDefault || col.DefaultExpr != "":
		b = append(b, " DEFAULT "...)
		b = append(b, formatDefault(col)...)
	case col.Nullable && !isBlobKind(col) && !col.AutoIncrement:
		b = append(b, " DEFAULT NULL"...)
	}
	if col.OnUpdateExpr != "" {
		b = append(b, " ON UPDATE "...)
		b = append(b, col.OnUpdateExpr...)
	}
	if col.AutoIncrement {
		b = append(b, " AUTO_INCREMENT"...)
	}
	if col.Comment != "" {
		b = append(b, " COMMENT "...)
		b = appendString(b, col.Comment)
	}
	return b
}

func appendIndex(b []byte, t *catalog.Table, ix *catalog.Index) []byte {
	switch {
	case ix.Primary:
		b = append(b, "  PRIMARY KEY ("...)
	case ix.Unique:
		b = append(b, "  UNIQUE KEY "...)
		b = appendIdent(b, ix.Name)
		b = append(b, " ("...)
	default:
		b = append(b, "  KEY "...)
		b = appendIdent(b, ix.Name)
		b = append(b, " ("...)
	}
	for k, ic := range ix.Columns {
		if k > 0 {
			b = append(b, ',')
		}
		name := "?"
		if ic.Col >= 0 && ic.Col < len(t.Columns) {
			name = t.Columns[ic.Col].Name
		}
		b = appendIdent(b, name)
		if ic.Prefix > 0 {
			b = appendParen(b, ic.Prefix)
		}
		if ic.Desc {
			b = append(b, " DESC"...)
		}
	}
	b = append(b, ')')
	if ix.Comment != "" {
		b = append(b, " COMMENT "...)
		b = appendString(b, ix.Comment)
	}
	return b
}
