package plan

import (
	"strings"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

// NarrowestIndex returns the secondary index to scan instead of the rows
// when a query reads no column of a table (SELECT COUNT(*) FROM t): every
// row has one entry in each secondary index, and an entry holds only its
// key columns and the primary key, so the narrowest index is the fewest
// bytes to read (InnoDB counts through its smallest secondary index too).
// Widths are estimated from the declared types. It returns nil when hints
// forbid every secondary index or none is narrower than the rows.
func NarrowestIndex(t *catalog.Table, hints IndexHints) *catalog.Index {
	if hints.Use != nil && !hints.Force {
		// USE INDEX (...) names the indexes to consider; a scan that
		// names none of them keeps to the table.
		return nil
	}
	rowWidth := 0
	for i := range t.Columns {
		rowWidth += columnWidth(&t.Columns[i])
	}
	var best *catalog.Index
	bestWidth := rowWidth
	for _, ix := range t.Indexes[1:] {
		if !hints.Allowed(ix) {
			continue
		}
		w := 0
		for _, ic := range ix.Columns {
			c := &t.Columns[ic.Col]
			cw := columnWidth(c)
			if ic.Prefix > 0 && ic.Prefix < cw {
				cw = ic.Prefix
			}
			w += cw
		}
		if w < bestWidth || w == bestWidth && best != nil && strings.ToLower(ix.Name) < strings.ToLower(best.Name) {
			best, bestWidth = ix, w
		}
	}
	return best
}

// columnWidth estimates the bytes a value of column c takes in a key or a
// row: the fixed size of numbers and temporal types, the declared length
// of strings (as if ASCII), and 256 for TEXT, BLOB and JSON.
func columnWidth(c *catalog.Column) int {
	switch c.Type {
	case sqltypes.Int8, sqltypes.Uint8, sqltypes.Year:
		return 1
	case sqltypes.Int16, sqltypes.Uint16, sqltypes.Enum:
		return 2
	case sqltypes.Int24, sqltypes.Uint24, sqltypes.Date, sqltypes.Time:
		return 3
	case sqltypes.Int32, sqltypes.Uint32, sqltypes.Float32, sqltypes.Timestamp:
		return 4
	case sqltypes.Int64, sqltypes.Uint64, sqltypes.Float64, sqltypes.Datetime, sqltypes.Set:
		return 8
	case sqltypes.Decimal:
		return c.Length/2 + 1
	case sqltypes.Bit:
		return (c.Length + 7) / 8
	case sqltypes.VarChar, sqltypes.Char, sqltypes.VarBinary, sqltypes.Binary:
		return c.Length + 1
	}
	return 256
}
