package replica

import (
	"testing"

	"vitess.io/vitess/go/mysql/binlog"
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

func TestCheckColumn(t *testing.T) {
	char := &catalog.Column{Type: sqltypes.Char, TypeName: "char"}
	enum := &catalog.Column{Type: sqltypes.Enum, TypeName: "enum"}
	for _, tc := range []struct {
		typ  byte
		meta uint16
		col  *catalog.Column
		ok   bool
	}{
		{binlog.TypeLong, 0, &catalog.Column{Type: sqltypes.Int32}, true},
		{binlog.TypeLong, 0, &catalog.Column{Type: sqltypes.Uint32}, true},
		{binlog.TypeLongLong, 0, &catalog.Column{Type: sqltypes.Int32, TypeName: "int"}, false},
		{binlog.TypeString, uint16(binlog.TypeString)<<8 | 40, char, true},
		// CHAR(120) in utf8mb4: 480 bytes, bits 8-9 of the length in the
		// real type's byte (0xee).
		{binlog.TypeString, 0xee<<8 | 0xe0, char, true},
		{binlog.TypeString, uint16(binlog.TypeEnum)<<8 | 1, enum, true},
		{binlog.TypeString, uint16(binlog.TypeEnum)<<8 | 1, char, false},
		{binlog.TypeBlob, 4, &catalog.Column{Type: sqltypes.TypeJSON}, true},
		{binlog.TypeDateTime2, 3, &catalog.Column{Type: sqltypes.Timestamp, TypeName: "timestamp"}, false},
		{binlog.TypeGeometry, 4, &catalog.Column{Type: sqltypes.Blob, TypeName: "blob"}, false},
	} {
		err := checkColumn(tc.typ, tc.meta, tc.col)
		if (err == nil) != tc.ok {
			t.Errorf("type %d meta %#x -> %v: %v", tc.typ, tc.meta, tc.col.Type, err)
		}
	}
}

func TestAppendLiteral(t *testing.T) {
	latin1 := collations.MySQL8().LookupByName("latin1_swedish_ci")
	for _, tc := range []struct {
		v    sqltypes.Value
		col  catalog.Column
		want string
	}{
		{sqltypes.NULL, catalog.Column{Type: sqltypes.Int32}, "NULL"},
		{sqltypes.NewInt64(-5), catalog.Column{Type: sqltypes.Int64}, "-5"},
		{sqltypes.MakeTrusted(sqltypes.Decimal, []byte("-12.50")), catalog.Column{Type: sqltypes.Decimal}, "-12.50"},
		{sqltypes.MakeTrusted(sqltypes.Timestamp, []byte("2021-01-01 00:00:00.5")), catalog.Column{Type: sqltypes.Timestamp}, "'2021-01-01 00:00:00.5'"},
		{sqltypes.MakeTrusted(sqltypes.VarBinary, []byte{0, 0xff}), catalog.Column{Type: sqltypes.VarBinary, Collation: collations.CollationBinaryID}, "X'00ff'"},
		{sqltypes.MakeTrusted(sqltypes.VarBinary, nil), catalog.Column{Type: sqltypes.Blob, Collation: collations.CollationBinaryID}, "''"},
		{sqltypes.MakeTrusted(sqltypes.VarChar, []byte("é")), catalog.Column{Type: sqltypes.VarChar, Collation: collations.CollationUtf8mb4ID}, "'é'"},
		{sqltypes.MakeTrusted(sqltypes.VarChar, []byte(`a'b\c`)), catalog.Column{Type: sqltypes.VarChar, Collation: collations.CollationUtf8mb4ID}, "_utf8mb4 X'6127625c63'"},
		{sqltypes.MakeTrusted(sqltypes.VarChar, []byte("a\x00b")), catalog.Column{Type: sqltypes.VarChar, Collation: collations.CollationUtf8mb4ID}, "_utf8mb4 X'610062'"},
		{sqltypes.MakeTrusted(sqltypes.VarChar, []byte{0xff}), catalog.Column{Type: sqltypes.VarChar, Collation: collations.CollationUtf8mb4ID}, "_utf8mb4 X'ff'"},
		// latin1 bytes from the source become UTF-8 (strata stores text
		// as UTF-8 in every character set).
		{sqltypes.MakeTrusted(sqltypes.VarChar, []byte{0xe9}), catalog.Column{Type: sqltypes.VarChar, Collation: latin1}, "'é'"},
		{sqltypes.MakeTrusted(sqltypes.Uint8, []byte("2")), catalog.Column{Type: sqltypes.Enum}, "2"},
	} {
		if got := string(appendLiteral(nil, tc.v, &tc.col)); got != tc.want {
			t.Errorf("%v as %v: %s, want %s", tc.v, tc.col.Type, got, tc.want)
		}
	}
}
