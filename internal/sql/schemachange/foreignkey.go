package schemachange

import (
	"fmt"
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
)

// FormatForeignKey renders a FOREIGN KEY constraint as MySQL's SHOW CREATE
// TABLE does, naming an unnamed one <table>_ibfk_<n>. Foreign keys are kept
// (SHOW CREATE TABLE, information_schema) but not enforced.
func FormatForeignKey(t *catalog.Table, name string, fk *sqlparser.ForeignKeyDefinition) string {
	if name == "" {
		n := 1
		for _, f := range t.ForeignKeys {
			if strings.HasPrefix(f, "CONSTRAINT "+coltype.QuoteIdent(t.Name + "_ibfk_")[:len(t.Name)+7]) {
				n++
			}
		}
		name = fmt.Sprintf("%s_ibfk_%d", t.Name, n)
	}
	cols := func(cs sqlparser.Columns) string {
		parts := make([]string, len(cs))
		for i, c := range cs {
			parts[i] = coltype.QuoteIdent(c.String())
		}
		return strings.Join(parts, ", ")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CONSTRAINT %s FOREIGN KEY (%s)", coltype.QuoteIdent(name), cols(fk.Source))
	if ref := fk.ReferenceDefinition; ref != nil {
		tbl := coltype.QuoteIdent(ref.ReferencedTable.Name.String())
		if q := ref.ReferencedTable.Qualifier.String(); q != "" && q != t.DB {
			tbl = coltype.QuoteIdent(q) + "." + tbl
		}
		fmt.Fprintf(&b, " REFERENCES %s (%s)", tbl, cols(ref.ReferencedColumns))
		action := func(a sqlparser.ReferenceAction) string {
			switch a {
			case sqlparser.Restrict:
				return "RESTRICT"
			case sqlparser.Cascade:
				return "CASCADE"
			case sqlparser.NoAction:
				return "NO ACTION"
			case sqlparser.SetNull:
				return "SET NULL"
			case sqlparser.SetDefault:
				return "SET DEFAULT"
			}
			return ""
		}
		if a := action(ref.OnDelete); a != "" {
			b.WriteString(" ON DELETE " + a)
		}
		if a := action(ref.OnUpdate); a != "" {
			b.WriteString(" ON UPDATE " + a)
		}
	}
	return b.String()
}
