package table

import (
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

// EncodeValue encodes the stored row value of row.
func (t *Table) EncodeValue(dst []byte, row []sqltypes.Value) ([]byte, error) {
	return t.rc.EncodeRow(dst, row)
}

// SecondaryKey appends the entry key of row in secondary index ix; it also
// returns the length of the unique prefix (index id + key parts) and whether
// an indexed value is NULL. Used by index back-fill and table rebuilds.
func (t *Table) SecondaryKey(dst []byte, ix *catalog.Index, row []sqltypes.Value, pkKey []byte) ([]byte, int, bool, error) {
	return t.secondaryKey(dst, ix, row, pkKey)
}
