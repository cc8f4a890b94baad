package coltype

import (
	"vitess.io/vitess/go/mysql/collations"

	"github.com/strata-db/strata/internal/catalog"
)

// ColumnSQL renders a column definition as SHOW CREATE TABLE does, with
// its character set and collation always written out (so that it means
// the same in a table of any default collation): CREATE TABLE … SELECT
// copies a selected column's definition through it.
func ColumnSQL(col *catalog.Column) string {
	b := appendColumn(nil, col, collations.Unknown)
	return string(b[2:]) // without the indentation
}
