package codec

import (
	"bytes"
	"cmp"
	"strings"
	"testing"
	"unicode/utf8"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/colldata"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
)

// Fuzz targets of the codecs. `go test` runs their seeds (f.Add plus
// testdata/fuzz/<target>); `go test -run=^$ -fuzz=^FuzzKeyRoundTrip$
// -fuzztime=10s .` explores (scripts/fuzz-smoke.sh runs each briefly).

// fuzzColumnDefs are the column types the round-trip targets store into,
// converted with coltype.FromAST exactly as CREATE TABLE does.
var fuzzColumnDefs = []string{
	"c tinyint", "c tinyint unsigned", "c smallint", "c mediumint unsigned", "c int",
	"c int unsigned", "c bigint", "c bigint unsigned",
	"c decimal(10,3)", "c decimal(65,30) unsigned", "c decimal(5,0)",
	"c float", "c double", "c bit(5)", "c bit(64)", "c year",
	"c date", "c datetime", "c datetime(6)", "c timestamp(2)", "c time", "c time(3)",
	"c char(3)", "c varchar(20)", "c varchar(20) collate utf8mb4_bin",
	"c varchar(20) collate utf8mb4_0900_ai_ci", "c varchar(5) character set latin1",
	"c varchar(5) character set utf8mb3", "c text",
	"c binary(3)", "c varbinary(40)", "c blob",
	"c enum('a','b','c')", "c set('x','y','z')", "c json",
}

// fuzzColumns parses fuzzColumnDefs once per target.
func fuzzColumns(tb testing.TB) []catalog.Column {
	tb.Helper()
	parser := sqlparser.NewTestParser()
	cols := make([]catalog.Column, len(fuzzColumnDefs))
	for i, def := range fuzzColumnDefs {
		st, err := parser.ParseStrictDDL("create table t (" + def + ")")
		if err != nil {
			tb.Fatalf("parse %q: %v", def, err)
		}
		col, err := coltype.FromAST(st.(*sqlparser.CreateTable).TableSpec.Columns[0], collations.ID(45))
		if err != nil {
			tb.Fatalf("FromAST(%q): %v", def, err)
		}
		cols[i] = col
	}
	return cols
}

// FuzzKeyRoundTrip converts arbitrary text into a random column type (as an
// INSERT would) and checks that every value the conversion accepts encodes
// as a key part and as a row value, and decodes back to itself: SkipKey
// consumes exactly the key part, DecodeKey (for decodable types) returns the
// value, and a row with the value in a stored column and in a primary-key
// column round-trips through EncodeRow/DecodeRow.
func FuzzKeyRoundTrip(f *testing.F) {
	for _, s := range []string{"", "0", "-1", "127", "-129", "18446744073709551615", "12.5", "-0.001",
		"1e300", "2024-02-29", "2024-01-31 13:45:00.123456", "-838:59:59", "a", "a,z", "B ", "\x00",
		"é\x00 ", `{"k": [1, 2]}`, "\xff\xfe", strings.Repeat("9", 70)} {
		f.Add(s, uint8(len(s)), false)
		f.Add(s, uint8(3*len(s)+1), true)
	}
	cols := fuzzColumns(f)
	trailer := []byte{0x00, 0x01, 0xff}
	f.Fuzz(func(t *testing.T, in string, ci uint8, desc bool) {
		col := &cols[int(ci)%len(cols)]
		v, _, err := coltype.Convert(col, sqltypes.MakeTrusted(sqltypes.VarChar, []byte(in)), false, 1)
		if err != nil {
			return
		}
		key, err := AppendKey(nil, col, v, 0, desc)
		if err != nil {
			t.Fatalf("%s: AppendKey(%q) of a converted value: %v", col.TypeName, v.Raw(), err)
		}
		key = append(key, trailer...)
		rest, err := SkipKey(key, col, desc)
		if err != nil || !bytes.Equal(rest, trailer) {
			t.Fatalf("%s desc=%v: SkipKey(key of %q) = rest %x, err %v", col.TypeName, desc, v.Raw(), rest, err)
		}
		if KeyDecodable(col) {
			rest, got, err := DecodeKey(key, col, desc, nil)
			if err != nil || !bytes.Equal(rest, trailer) {
				t.Fatalf("%s desc=%v: DecodeKey(key of %q) = rest %x, err %v", col.TypeName, desc, v.Raw(), rest, err)
			}
			if !sameValue(got, v) {
				t.Fatalf("%s desc=%v: key of %q decodes to %v", col.TypeName, desc, v.Raw(), got)
			}
		}

		// A row (id INT PRIMARY KEY, c) and a row (c PRIMARY KEY, n INT).
		id := catalog.Column{Name: "id", Type: sqltypes.Int32, TypeName: "int", Collation: collBinary}
		other := *col
		other.Nullable = true
		for _, tbl := range []*catalog.Table{
			{Name: "stored", Columns: []catalog.Column{id, other}, AutoIncCol: -1,
				Indexes: []*catalog.Index{{ID: 1, Name: "PRIMARY", Primary: true, Unique: true, Columns: []catalog.IndexColumn{{Col: 0}}}}},
			{Name: "keyed", Columns: []catalog.Column{*col, id}, AutoIncCol: -1,
				Indexes: []*catalog.Index{{ID: 1, Name: "PRIMARY", Primary: true, Unique: true, Columns: []catalog.IndexColumn{{Col: 0, Desc: desc}}}}},
		} {
			row := []sqltypes.Value{sqltypes.NewInt32(7), v}
			if tbl.Name == "keyed" {
				row = []sqltypes.Value{v, sqltypes.NewInt32(7)}
			}
			rc := NewRowCodec(tbl)
			value, err := rc.EncodeRow(nil, row)
			if err != nil {
				t.Fatalf("%s: EncodeRow(%q) in table %s: %v", col.TypeName, v.Raw(), tbl.Name, err)
			}
			pk := pkSuffix(t, tbl, row)
			got, err := rc.DecodeRow(nil, pk, value)
			if err != nil {
				t.Fatalf("%s: DecodeRow(%q) in table %s: %v", col.TypeName, v.Raw(), tbl.Name, err)
			}
			for i := range row {
				if !sameValue(got[i], row[i]) {
					t.Fatalf("%s: table %s column %d: got %v, want %v", col.TypeName, tbl.Name, i, got[i], row[i])
				}
			}
		}
	})
}

// fuzzOrderCollations are the collations FuzzKeyOrder compares text under.
var fuzzOrderCollations = []collations.ID{
	collGeneralCI, collBin, coll0900AICI, collBinary,
	collations.ID(33),  // utf8mb3_general_ci
	collations.ID(224), // utf8mb4_unicode_ci
	collations.ID(278), // utf8mb4_0900_as_cs
}

// FuzzKeyOrder checks the memcomparable property: for two integers, and for
// two strings under a collation, the byte order of the keys is the SQL order
// of the values (ascending), and its reverse for descending key parts.
func FuzzKeyOrder(f *testing.F) {
	f.Add(int64(-1), int64(0), "a", "B", uint8(0))
	f.Add(int64(-9223372036854775808), int64(9223372036854775807), "a ", "a", uint8(1))
	f.Add(int64(255), int64(256), "", "\x00", uint8(2))
	f.Add(int64(1)<<40, int64(-1)<<40, "ß", "ss", uint8(5))
	f.Add(int64(7), int64(7), "Ä", "a", uint8(6))
	f.Add(int64(0), int64(-128), "ab", "a\u0301b", uint8(3))
	f.Fuzz(func(t *testing.T, a, b int64, s1, s2 string, ci uint8) {
		check := func(what string, col *catalog.Column, x, y sqltypes.Value, want int) {
			t.Helper()
			for _, desc := range []bool{false, true} {
				kx, err1 := AppendKey(nil, col, x, 0, desc)
				ky, err2 := AppendKey(nil, col, y, 0, desc)
				if err1 != nil || err2 != nil {
					t.Fatalf("%s: AppendKey: %v, %v", what, err1, err2)
				}
				got := bytes.Compare(kx, ky)
				if desc {
					got = -got
				}
				if got != want {
					t.Fatalf("%s desc=%v: compare(key(%q)=%x, key(%q)=%x) = %d, want %d",
						what, desc, x.Raw(), kx, y.Raw(), ky, got, want)
				}
			}
		}
		i64 := intCol("i64", sqltypes.Int64)
		check("bigint", &i64, sqltypes.NewInt64(a), sqltypes.NewInt64(b), cmp.Compare(a, b))
		u64 := intCol("u64", sqltypes.Uint64)
		check("bigint unsigned", &u64, sqltypes.NewUint64(uint64(a)), sqltypes.NewUint64(uint64(b)), cmp.Compare(uint64(a), uint64(b)))
		i32 := intCol("i32", sqltypes.Int32)
		check("int", &i32, sqltypes.NewInt32(int32(a)), sqltypes.NewInt32(int32(b)), cmp.Compare(int32(a), int32(b)))
		i16 := intCol("i16", sqltypes.Int16)
		check("smallint", &i16, sqltypes.NewInt64(int64(int16(a))), sqltypes.NewInt64(int64(int16(b))), cmp.Compare(int16(a), int16(b)))

		id := fuzzOrderCollations[int(ci)%len(fuzzOrderCollations)]
		coll := colldata.Lookup(id)
		typ := sqltypes.VarChar
		if id == collBinary {
			typ = sqltypes.VarBinary
		} else if !utf8.ValidString(s1) || !utf8.ValidString(s2) {
			return // a converted value is always valid in its charset
		} else if strings.HasPrefix(coll.Name(), "utf8mb3") && (hasSupplementary(s1) || hasSupplementary(s2)) {
			return // utf8mb3 cannot hold 4-byte characters (store assignment rejects them)
		}
		if _, info, _ := lookupColl(id); info.padSpace {
			// Collate does not implement PAD SPACE; the key strips
			// trailing spaces (tested in TestKeyCollations).
			s1, s2 = strings.TrimRight(s1, " "), strings.TrimRight(s2, " ")
		}
		want := coll.Collate([]byte(s1), []byte(s2), false)
		want = cmp.Compare(want, 0)
		col := textCol("s", typ, id)
		check(coll.Name(), &col, sqltypes.MakeTrusted(typ, []byte(s1)), sqltypes.MakeTrusted(typ, []byte(s2)), want)
	})
}

// FuzzKeyDecode feeds arbitrary bytes to SkipKey and DecodeKey for every
// column type: they must return an error or a value, never panic, and agree
// on where the key part ends. A value DecodeKey accepts re-encodes (when
// AppendKey accepts it) to a key that decodes to the same value.
func FuzzKeyDecode(f *testing.F) {
	for _, s := range []string{"", "\x00", "\x01", "\x01\x80", "\x01\x00\x01", "\x01\x00\xff\x00\x01",
		"\xfe\x7f", "\x01\x80\x00\x00\x00\x00\x00\x00\x01", "\x01\xff\xff\xff\xff\xff"} {
		f.Add([]byte(s), uint8(len(s)), false)
		f.Add([]byte(s), uint8(2*len(s)+1), true)
	}
	cases := orderCases()
	f.Fuzz(func(t *testing.T, data []byte, ci uint8, desc bool) {
		col := &cases[int(ci)%len(cases)].col
		restSkip, errSkip := SkipKey(data, col, desc)
		if !KeyDecodable(col) {
			if _, _, err := DecodeKey(data, col, desc, nil); err == nil {
				t.Fatalf("%s: DecodeKey of a non-decodable type succeeded", col.Name)
			}
			return
		}
		rest, v, err := DecodeKey(data, col, desc, nil)
		if err != nil {
			return
		}
		if errSkip != nil || len(restSkip) != len(rest) {
			t.Fatalf("%s desc=%v: DecodeKey(%x) consumed %d bytes, SkipKey %d (err %v)",
				col.Name, desc, data, len(data)-len(rest), len(data)-len(restSkip), errSkip)
		}
		key, err := AppendKey(nil, col, v, 0, desc)
		if err != nil {
			return // e.g. an out-of-range date that only a corrupt key holds
		}
		_, again, err := DecodeKey(key, col, desc, nil)
		if err != nil || !sameValue(again, v) {
			t.Fatalf("%s desc=%v: %x decodes to %v, which re-encodes to %x decoding to %v (%v)",
				col.Name, desc, data, v, key, again, err)
		}
	})
}

// FuzzRowDecode feeds arbitrary row values and primary-key suffixes to
// DecodeRow of three tables (all types with a composite key, a hidden key,
// and the sysbench table): an error or a row, never a panic.
func FuzzRowDecode(f *testing.F) {
	all := allTypesTable()
	hidden := &catalog.Table{Name: "h", Columns: []catalog.Column{intCol("a", sqltypes.Int64), textCol("b", sqltypes.VarChar, collGeneralCI)},
		HiddenPK: true, AutoIncCol: -1}
	sb := sysbenchTable()
	tables := []*catalog.Table{all, hidden, sb}
	for _, tbl := range tables {
		rc := NewRowCodec(tbl)
		var row []sqltypes.Value
		if tbl == sb {
			row = sysbenchRow(tbl)
		} else {
			row = make([]sqltypes.Value, len(tbl.Columns))
			for i := range row {
				row[i] = sqltypes.NULL
			}
			row[0] = val(tbl.Columns[0].Type, "1")
			if tbl == all {
				row[1], row[2] = val(sqltypes.VarChar, "x"), val(sqltypes.VarBinary, "y")
			}
		}
		value, err := rc.EncodeRow(nil, row)
		if err != nil {
			f.Fatal(err)
		}
		var pk []byte
		if tbl.HiddenPK {
			pk = AppendHiddenPK(nil, 1)
		} else {
			pk = pkSuffix(f, tbl, row)
		}
		f.Add(value, pk, uint8(len(f.Name())))
	}
	f.Add([]byte("\x01\x05\x00"), []byte("\x01\x80\x00\x00\x01"), uint8(0))
	f.Add([]byte("\x01\xff\xff\xff\xff\x0f"), []byte{}, uint8(1))
	codecs := make([]*RowCodec, len(tables))
	for i, tbl := range tables {
		codecs[i] = NewRowCodec(tbl)
	}
	f.Fuzz(func(t *testing.T, value, pk []byte, ti uint8) {
		rc := codecs[int(ti)%len(codecs)]
		row, err := rc.DecodeRow(nil, pk, value)
		if err == nil && len(row) != len(rc.Table().Columns) {
			t.Fatalf("DecodeRow returned %d values for %d columns", len(row), len(rc.Table().Columns))
		}
		// The buffer-reusing variant behaves the same.
		_, _, err2 := rc.DecodeRowBuf(nil, make([]byte, 0, 8), pk, value)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("DecodeRow err %v, DecodeRowBuf err %v", err, err2)
		}
	})
}

// hasSupplementary reports whether s has a character outside the BMP (a
// 4-byte UTF-8 sequence), which utf8mb3 columns cannot store.
func hasSupplementary(s string) bool {
	for _, r := range s {
		if r > 0xFFFF {
			return true
		}
	}
	return false
}
