package table

import (
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

// TimestampCols lists the ordinals of the table's TIMESTAMP columns, whose
// values the store holds in UTC (the SQL layer converts them from and to
// the session's time zone); nil when there are none.
func (t *Table) TimestampCols() []int { return t.tsCols }

// timestampCols computes TimestampCols for Open.
func timestampCols(t *Table) []int {
	var out []int
	for i := range t.Def.Columns {
		if t.Def.Columns[i].Type == sqltypes.Timestamp {
			out = append(out, i)
		}
	}
	return out
}

// DupEntry is the entry text of a duplicate-key error (1062) on ix for
// row: its key columns joined by '-', prefix-indexed columns cut.
func (t *Table) DupEntry(ix *catalog.Index, row []sqltypes.Value) string {
	return t.dupError(ix, row).(*DupKeyError).Entry
}
