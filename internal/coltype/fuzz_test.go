package coltype

import (
	"testing"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

// fuzzColumns are the column types FuzzConvert stores into.
var fuzzColumns = []string{
	"c tinyint", "c int unsigned", "c bigint", "c decimal(10,3)", "c decimal(65,30) unsigned",
	"c float", "c float(7,3)", "c double", "c bit(5)", "c bit(64)", "c year",
	"c date", "c datetime(6)", "c timestamp(2)", "c time(3)",
	"c char(3)", "c varchar(5) character set latin1", "c varchar(5) character set utf8mb3", "c tinytext",
	"c binary(3)", "c varbinary(4)", "c blob",
	"c enum('a','b','c')", "c set('x','y')", "c json",
}

var fuzzTypes = []sqltypes.Type{
	sqltypes.VarChar, sqltypes.VarBinary, sqltypes.Int64, sqltypes.Uint64, sqltypes.Float64,
	sqltypes.Decimal, sqltypes.Date, sqltypes.Datetime, sqltypes.Time, sqltypes.HexNum,
	sqltypes.HexVal, sqltypes.BitNum, sqltypes.Bit, sqltypes.Year, sqltypes.TypeJSON, sqltypes.Enum,
}

// FuzzConvert checks that Convert never panics, and that whatever it
// returns converts again to itself (stored forms are canonical).
func FuzzConvert(f *testing.F) {
	for _, s := range []string{"", "0", "-1", "12abc", "1e400", "2024-01-02 03:04:05.9999999", "838:59:59",
		"0x41", "X'4142'", "0b101", "{\"a\":1}", "a,b", "\xff\xfe", "99999999999999999999999999", "1e-999999"} {
		f.Add(s, uint8(0), uint8(0), true)
	}
	cols := make([]catalog.Column, len(fuzzColumns))
	for i, def := range fuzzColumns {
		cols[i] = *mustCol(f, def)
	}
	f.Fuzz(func(t *testing.T, in string, ci, ti uint8, strict bool) {
		col := &cols[int(ci)%len(cols)]
		typ := fuzzTypes[int(ti)%len(fuzzTypes)]
		v := sqltypes.MakeTrusted(typ, []byte(in))
		out, _, err := Convert(col, v, strict, 1)
		if err != nil {
			return
		}
		again, _, err := Convert(col, out, true, 1)
		if col.Type == sqltypes.Timestamp || col.Type == sqltypes.Datetime || col.Type == sqltypes.Date {
			return // zero dates are accepted non-strict only
		}
		if col.Type == sqltypes.Enum && out.ToString() == "" {
			return // '' is the error value, not a member
		}
		if err != nil {
			t.Fatalf("%s <- %v: stored %q does not convert again: %v", col.Name, v, out.ToString(), err)
		}
		if again.ToString() != out.ToString() {
			t.Fatalf("%v: %q converts again to %q", col.TypeName, out.ToString(), again.ToString())
		}
	})
}
