package server

import (
	"testing"

	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
)

func TestConformResult(t *testing.T) {
	v := func(typ querypb.Type, s string) sqltypes.Value { return sqltypes.MakeTrusted(typ, []byte(s)) }
	res := &sqltypes.Result{
		Fields: []*querypb.Field{
			{Name: "i", Type: sqltypes.Int64},
			{Name: "d", Type: sqltypes.Decimal, Decimals: 2},
			{Name: "s", Type: sqltypes.VarChar},
			{Name: "bad", Type: sqltypes.Int32},
			{Name: "f", Type: sqltypes.Float64},
		},
		Rows: [][]sqltypes.Value{
			{v(sqltypes.Int32, "7"), v(sqltypes.Int64, "3"), v(sqltypes.Int64, "5"), v(sqltypes.Int32, "1"), v(sqltypes.Decimal, "2.50")},
			{sqltypes.NULL, v(sqltypes.Float64, "0.25"), v(sqltypes.Datetime, "2020-01-01 00:00:00"), v(sqltypes.Decimal, "1.5"), v(sqltypes.Int8, "1")},
		},
	}
	shared := res.Fields // a plan's cached fields, say
	before := MetadataMismatches()
	conformResult(res)
	if shared[3].Type != sqltypes.Int32 || &shared[0] == &res.Fields[0] {
		t.Errorf("conformResult changed the fields slice it was given")
	}
	for c, f := range res.Fields {
		for r, row := range res.Rows {
			if !row[c].IsNull() && row[c].Type() != f.Type {
				t.Errorf("row %d column %s: value type %v, field type %v", r, f.Name, row[c].Type(), f.Type)
			}
		}
	}
	if res.Fields[3].Type != sqltypes.VarChar {
		t.Errorf("column bad (1.5 in an INT column) sent as %v, want VARCHAR", res.Fields[3].Type)
	}
	if res.Fields[0].Type != sqltypes.Int64 || res.Fields[1].Type != sqltypes.Decimal {
		t.Errorf("columns whose values fit were retyped: %v %v", res.Fields[0].Type, res.Fields[1].Type)
	}
	if got := MetadataMismatches() - before; got != 1 {
		t.Errorf("%d mismatches counted, want 1", got)
	}
	if string(res.Rows[1][3].Raw()) != "1.5" {
		t.Errorf("text of a retyped value changed: %q", res.Rows[1][3].Raw())
	}
}

func TestConformValueRanges(t *testing.T) {
	for _, c := range []struct {
		typ  querypb.Type
		text string
		ok   bool
	}{
		{sqltypes.Int8, "127", true},
		{sqltypes.Int8, "128", false},
		{sqltypes.Uint8, "-1", false},
		{sqltypes.Int32, "-2147483648", true},
		{sqltypes.Int32, "2147483648", false},
		{sqltypes.Decimal, "1e+20", false},
		{sqltypes.Decimal, "-0.125", true},
		{sqltypes.Float64, "x", false},
		{sqltypes.Date, "2020-01-01", false},
		{sqltypes.Blob, "anything", true},
	} {
		src := sqltypes.MakeTrusted(sqltypes.Float64, []byte(c.text))
		if c.typ == sqltypes.Float64 {
			src = sqltypes.MakeTrusted(sqltypes.VarChar, []byte(c.text))
		}
		if _, ok := conformValue(src, c.typ); ok != c.ok {
			t.Errorf("conformValue(%q as %v) ok = %v, want %v", c.text, c.typ, ok, c.ok)
		}
	}
}

// TestConformBatch: a later batch of a streamed result is retyped to the
// columns sent with the first, or ends the result with an error.
func TestConformBatch(t *testing.T) {
	v := func(typ querypb.Type, s string) sqltypes.Value { return sqltypes.MakeTrusted(typ, []byte(s)) }
	fields := []*querypb.Field{{Name: "i", Type: sqltypes.Int64}, {Name: "s", Type: sqltypes.VarChar}}
	res := &sqltypes.Result{Fields: fields, Rows: [][]sqltypes.Value{
		{v(sqltypes.Int32, "7"), v(sqltypes.Int64, "5")},
		{sqltypes.NULL, v(sqltypes.Datetime, "2020-01-01 00:00:00")},
	}}
	if err := conformBatch(res); err != nil {
		t.Fatal(err)
	}
	if res.Rows[0][0].Type() != sqltypes.Int64 || res.Rows[1][1].Type() != sqltypes.VarChar || fields[1].Type != sqltypes.VarChar {
		t.Errorf("not retyped: %v", res.Rows)
	}
	res.Rows = [][]sqltypes.Value{{v(sqltypes.Decimal, "1.5"), sqltypes.NULL}}
	if err := conformBatch(res); err == nil {
		t.Error("1.5 in an INT column sent after its first rows: no error")
	}
}

// TestFixedDecimals: FLOAT(M,D)/DOUBLE(M,D) columns (Decimals below 31)
// are printed with D decimals; other float columns and other types keep
// their text.
func TestFixedDecimals(t *testing.T) {
	v := func(typ querypb.Type, s string) sqltypes.Value { return sqltypes.MakeTrusted(typ, []byte(s)) }
	res := &sqltypes.Result{
		Fields: []*querypb.Field{
			{Name: "x", Type: sqltypes.Float32, Decimals: 2},
			{Name: "y", Type: sqltypes.Float64, Decimals: 3},
			{Name: "z", Type: sqltypes.Float64, Decimals: 31},
			{Name: "d", Type: sqltypes.Decimal, Decimals: 2},
		},
		Rows: [][]sqltypes.Value{
			{v(sqltypes.Float32, "1.5"), v(sqltypes.Float64, "-0.125"), v(sqltypes.Float64, "1.5"), v(sqltypes.Decimal, "1.5")},
			{sqltypes.NULL, v(sqltypes.Float64, "2"), v(sqltypes.Float64, "1e20"), sqltypes.NULL},
		},
	}
	conformResult(res)
	want := [][]string{{"1.50", "-0.125", "1.5", "1.5"}, {"NULL", "2.000", "1e20", "NULL"}}
	for r, row := range res.Rows {
		for c, val := range row {
			got := string(val.Raw())
			if val.IsNull() {
				got = "NULL"
			}
			if got != want[r][c] {
				t.Errorf("row %d column %s: %q, want %q", r, res.Fields[c].Name, got, want[r][c])
			}
		}
	}
}
