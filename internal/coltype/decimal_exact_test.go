package coltype

import (
	"math/rand"
	"strings"
	"testing"

	"vitess.io/vitess/go/sqltypes"
)

// TestExactDecimalMatchesRounded converts random integer and DECIMAL values
// into DECIMAL columns of several shapes and checks that whenever the exact
// path takes a value, the general (rounding) path gives the same text with
// no warning; and that the exact path takes the common cases at all.
func TestExactDecimalMatchesRounded(t *testing.T) {
	cols := []string{"c decimal(12,2)", "c decimal(4,4)", "c decimal(5,0)", "c decimal(18,6) unsigned", "c decimal(65,30)", "c decimal(2,1)"}
	r := rand.New(rand.NewSource(1))
	digits := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteByte(byte('0' + r.Intn(10)))
		}
		return b.String()
	}
	taken := 0
	for _, def := range cols {
		col := mustCol(t, def)
		for i := 0; i < 4000; i++ {
			var v sqltypes.Value
			sign := ""
			if r.Intn(3) == 0 {
				sign = "-"
			}
			switch r.Intn(4) {
			case 0:
				v = sqltypes.MakeTrusted(sqltypes.Int64, []byte(sign+digits(1+r.Intn(8))))
			case 1:
				v = sqltypes.MakeTrusted(sqltypes.Uint64, []byte(digits(1+r.Intn(8))))
			default:
				frac := digits(r.Intn(6))
				if r.Intn(3) == 0 {
					frac += "000"
				}
				typ := sqltypes.Decimal
				if r.Intn(2) == 0 {
					typ = sqltypes.VarChar // text, as LOAD DATA's fields
				}
				v = sqltypes.MakeTrusted(typ, []byte(sign+digits(r.Intn(6))+"."+frac))
			}
			fast, ok := exactDecimal(v, col.Length, col.Scale, col.Unsigned)
			c := conv{col: col, mode: ModeDefault, row: 1}
			slow, err := c.toDecimalRounded(v)
			if !ok {
				continue
			}
			taken++
			if err != nil || c.w != nil {
				t.Fatalf("%s ← %s %q: exact %q, rounded path: %v %v", def, v.Type(), v.Raw(), fast.Raw(), err, c.w)
			}
			if fast.ToString() != slow.ToString() || fast.Type() != slow.Type() {
				t.Fatalf("%s ← %s %q: exact %s %q, rounded %s %q", def, v.Type(), v.Raw(), fast.Type(), fast.Raw(), slow.Type(), slow.Raw())
			}
		}
	}
	if taken < 5000 {
		t.Fatalf("exact path took only %d of 24000 values", taken)
	}
	for _, s := range []string{"1e5", " 12", "12 ", "+12", "12abc", "", "-", ".", "1.2.3", "0x1A"} {
		for _, typ := range []sqltypes.Type{sqltypes.Decimal, sqltypes.VarChar} {
			if _, ok := exactDecimal(sqltypes.MakeTrusted(typ, []byte(s)), 12, 2, false); ok {
				t.Errorf("exact path took %s %q", typ, s)
			}
		}
	}
}
