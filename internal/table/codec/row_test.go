package codec

import (
	"bytes"
	"errors"
	"testing"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/encoding"
)

// allTypesTable has a three-part primary key (id, name DESC, vb): id and vb
// are recovered from the key, name (collated text) is stored.
func allTypesTable() *catalog.Table {
	cols := []catalog.Column{
		intCol("id", sqltypes.Int32),
		textCol("name", sqltypes.VarChar, collGeneralCI),
		intCol("vb", sqltypes.VarBinary),
		intCol("i8", sqltypes.Int8),
		intCol("u64", sqltypes.Uint64),
		intCol("i64", sqltypes.Int64),
		intCol("f", sqltypes.Float32),
		intCol("d", sqltypes.Float64),
		{Name: "dec", Type: sqltypes.Decimal, Length: 40, Scale: 3, Collation: collBinary, Nullable: true},
		intCol("date", sqltypes.Date),
		scaled("dt", sqltypes.Datetime, 6),
		scaled("ts", sqltypes.Timestamp, 0),
		scaled("tm", sqltypes.Time, 3),
		intCol("y", sqltypes.Year),
		enumCol("e", sqltypes.Enum, "small", "medium", "large"),
		enumCol("s", sqltypes.Set, "a", "b", "c", "d"),
		{Name: "bit", Type: sqltypes.Bit, Length: 12, Collation: collBinary, Nullable: true},
		textCol("txt", sqltypes.Text, collBin),
		intCol("blob", sqltypes.Blob),
		intCol("js", sqltypes.TypeJSON),
		textCol("c", sqltypes.Char, coll0900AICI),
		{Name: "dec0", Type: sqltypes.Decimal, Length: 10, Scale: 0, Collation: collBinary, Nullable: true},
		intCol("u8", sqltypes.Uint8),
		intCol("i24", sqltypes.Int24),
	}
	return &catalog.Table{
		Name:    "all",
		Columns: cols,
		Indexes: []*catalog.Index{{ID: 7, Name: "PRIMARY", Primary: true, Unique: true,
			Columns: []catalog.IndexColumn{{Col: 0}, {Col: 1, Desc: true}, {Col: 2}}}},
		AutoIncCol: -1,
	}
}

func makeRow(t *catalog.Table, texts ...any) []sqltypes.Value {
	row := make([]sqltypes.Value, len(t.Columns))
	for i, x := range texts {
		if x == nil {
			row[i] = sqltypes.NULL
		} else {
			row[i] = val(t.Columns[i].Type, x.(string))
		}
	}
	return row
}

func pkSuffix(tb testing.TB, t *catalog.Table, row []sqltypes.Value) []byte {
	var k []byte
	for _, ic := range t.Primary().Columns {
		var err error
		if k, err = AppendKey(k, &t.Columns[ic.Col], row[ic.Col], ic.Prefix, ic.Desc); err != nil {
			tb.Fatal(err)
		}
	}
	return k
}

func sameValue(a, b sqltypes.Value) bool {
	if a.IsNull() || b.IsNull() {
		return a.IsNull() && b.IsNull()
	}
	return a.Type() == b.Type() && bytes.Equal(a.Raw(), b.Raw())
}

func checkRoundTrip(t *testing.T, tbl *catalog.Table, rows [][]sqltypes.Value) {
	t.Helper()
	rc := NewRowCodec(tbl)
	var buf []byte
	for n, row := range rows {
		var err error
		buf, err = rc.EncodeRow(buf[:0], row)
		if err != nil {
			t.Fatalf("row %d: EncodeRow: %v", n, err)
		}
		var key []byte
		if tbl.HiddenPK {
			key = AppendHiddenPK(nil, uint64(n)+1)
		} else {
			key = pkSuffix(t, tbl, row)
		}
		got, err := rc.DecodeRow(nil, key, buf)
		if err != nil {
			t.Fatalf("row %d: DecodeRow: %v", n, err)
		}
		if len(got) != len(row) {
			t.Fatalf("row %d: %d values, want %d", n, len(got), len(row))
		}
		for i := range row {
			if !sameValue(got[i], row[i]) {
				t.Errorf("row %d column %s: got %v want %v", n, tbl.Columns[i].Name, got[i], row[i])
			}
		}
		// Decoding some columns skips the others: each column alone, and
		// every other one, come out as in the full decode; the rest NULL
		// (the primary key's columns that are not stored always decoded,
		// from the key).
		pkCol := map[int]bool{}
		for _, c := range tbl.Primary().Columns {
			pkCol[c.Col] = !rc.Stored(c.Col)
		}
		masks := [][]bool{}
		for i := range row {
			m := make([]bool, len(row))
			m[i] = true
			masks = append(masks, m)
		}
		alt := make([]bool, len(row))
		for i := range alt {
			alt[i] = i%2 == 1
		}
		masks = append(masks, alt)
		for _, need := range masks {
			part, _, err := rc.DecodeColumns(nil, nil, key, buf, need)
			if err != nil {
				t.Fatalf("row %d: DecodeColumns: %v", n, err)
			}
			for i := range row {
				want := row[i]
				if !need[i] && !pkCol[i] {
					want = sqltypes.NULL
				}
				if !sameValue(part[i], want) {
					t.Errorf("row %d column %s (need %v): got %v want %v", n, tbl.Columns[i].Name, need, part[i], want)
				}
			}
		}
		// Every proper prefix of the value is rejected, never a panic.
		for cut := 0; cut < len(buf); cut++ {
			if _, err := rc.DecodeRow(nil, key, buf[:cut]); err == nil {
				t.Errorf("row %d: truncated value (%d of %d bytes) decoded without error", n, cut, len(buf))
			}
		}
	}
}

func TestRowRoundTripAllTypes(t *testing.T) {
	tbl := allTypesTable()
	rows := [][]sqltypes.Value{
		makeRow(tbl, "1", "Alice", "k\x00ey", "-128", "18446744073709551615", "-9223372036854775808", "-1.5", "3.141592653589793",
			"-12.500", "2024-01-31", "2024-01-31 13:45:00.123456", "2038-01-19 03:14:07", "-838:59:59.000", "2024",
			"large", "a,c,d", "\x0f\xff", "héllo wörld", "\x00\x01\xff", `{"a": [1, 2]}`, "pad", "-1234567890", "255", "-8388608"),
		makeRow(tbl, "-2147483648", "", "", "127", "0", "9223372036854775807", "1e38", "-1e-300",
			"12345678901234567890123456789012345.678", "0000-00-00", "0000-00-00 00:00:00.000000", "1970-01-01 00:00:01", "00:00:00.500", "0000",
			"", "", "\x00\x00", "", "", "null", "", "0", "0", "8388607"),
		makeRow(tbl, "2147483647", "zzz", "\xff\xff", "0", "1", "0", "0", "0",
			"0.000", "9999-12-31", "9999-12-31 23:59:59.999999", "2024-02-29 00:00:00", "838:59:59.999", "2155",
			"small", "a,b,c,d", "\x00\x01", "tab\t", "bl\x00b", "[]", "é", "9999999999", "1", "-1"),
		makeRow(tbl, "5", "nulls", "x", nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil),
		makeRow(tbl, "6", "decimals", "y", nil, nil, nil, nil, nil, "-0.050", nil, nil, nil, "-00:00:00.001", nil, nil, nil, nil, nil, nil, nil, nil, "-5", nil, nil),
	}
	checkRoundTrip(t, tbl, rows)
}

func TestRowStoredColumns(t *testing.T) {
	rc := NewRowCodec(allTypesTable())
	for i, want := range map[int]bool{0: false, 1: true, 2: false, 3: true} {
		if got := rc.Stored(i); got != want {
			t.Errorf("Stored(%d) = %v want %v", i, got, want)
		}
	}
	// A prefixed primary-key column is stored even though it is decodable.
	tbl := &catalog.Table{Name: "p", Columns: []catalog.Column{intCol("vb", sqltypes.VarBinary), intCol("x", sqltypes.Int32)},
		Indexes: []*catalog.Index{{ID: 1, Primary: true, Columns: []catalog.IndexColumn{{Col: 0, Prefix: 2}}}}}
	if !NewRowCodec(tbl).Stored(0) {
		t.Error("prefixed PK column not stored")
	}
	checkRoundTrip(t, tbl, [][]sqltypes.Value{makeRow(tbl, "abcdef", "1"), makeRow(tbl, "", nil)})
}

func TestRowHiddenPK(t *testing.T) {
	tbl := &catalog.Table{Name: "h", HiddenPK: true,
		Columns: []catalog.Column{intCol("a", sqltypes.Int32), textCol("b", sqltypes.VarChar, collGeneralCI)},
		Indexes: []*catalog.Index{{ID: 3, Name: "PRIMARY", Primary: true}}}
	rc := NewRowCodec(tbl)
	if !rc.Stored(0) || !rc.Stored(1) {
		t.Fatal("hidden-PK table must store every column")
	}
	checkRoundTrip(t, tbl, [][]sqltypes.Value{makeRow(tbl, "1", "x"), makeRow(tbl, nil, nil), makeRow(tbl, "-7", "")})
	rest, id, err := DecodeHiddenPK(AppendHiddenPK(nil, 42))
	if err != nil || id != 42 || len(rest) != 0 {
		t.Fatalf("hidden PK round trip: %d %v", id, err)
	}
}

// TestRowAddedColumns decodes rows written before columns were appended to
// the table: the new columns read as their defaults.
func TestRowAddedColumns(t *testing.T) {
	old := &catalog.Table{Name: "t",
		Columns: []catalog.Column{intCol("id", sqltypes.Int64), intCol("a", sqltypes.Int32)},
		Indexes: []*catalog.Index{{ID: 9, Primary: true, Columns: []catalog.IndexColumn{{Col: 0}}}}}
	newer := *old
	newer.Columns = append(append([]catalog.Column(nil), old.Columns...),
		catalog.Column{Name: "b", Type: sqltypes.Int32, HasDefault: true, Default: sqltypes.NewInt32(7), Nullable: true},
		catalog.Column{Name: "c", Type: sqltypes.VarChar, Collation: collGeneralCI, Nullable: true},
		catalog.Column{Name: "d", Type: sqltypes.VarChar, Collation: collGeneralCI, HasDefault: true, Default: sqltypes.NULL, Nullable: true},
		catalog.Column{Name: "e", Type: sqltypes.VarChar, Collation: collGeneralCI, HasDefault: true, Default: val(sqltypes.VarChar, "dflt")},
	)
	oldRow := makeRow(old, "10", "-3")
	value, err := NewRowCodec(old).EncodeRow(nil, oldRow)
	if err != nil {
		t.Fatal(err)
	}
	key := pkSuffix(t, old, oldRow)
	got, err := NewRowCodec(&newer).DecodeRow(make([]sqltypes.Value, 0, 8), key, value)
	if err != nil {
		t.Fatal(err)
	}
	want := []sqltypes.Value{val(sqltypes.Int64, "10"), val(sqltypes.Int32, "-3"), sqltypes.NewInt32(7), sqltypes.NULL, sqltypes.NULL, val(sqltypes.VarChar, "dflt")}
	if len(got) != len(want) {
		t.Fatalf("got %d values", len(got))
	}
	for i := range want {
		if !sameValue(got[i], want[i]) {
			t.Errorf("column %s: got %v want %v", newer.Columns[i].Name, got[i], want[i])
		}
	}
	// A row from a wider definition cannot be read with a narrower one.
	wide, err := NewRowCodec(&newer).EncodeRow(nil, makeRow(&newer, "1", "2", "3", "x", nil, "e"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewRowCodec(old).DecodeRow(nil, key, wide); !errors.Is(err, ErrCorruptRow) {
		t.Errorf("decoding a wider row: %v", err)
	}
}

func TestRowErrors(t *testing.T) {
	tbl := allTypesTable()
	rc := NewRowCodec(tbl)
	if _, err := rc.EncodeRow(nil, make([]sqltypes.Value, 3)); !errors.Is(err, ErrBadValue) {
		t.Errorf("short row: %v", err)
	}
	row := makeRow(tbl, "1", "n", "v")
	row[3] = val(sqltypes.Int8, "300")
	out, err := rc.EncodeRow([]byte("keep"), row)
	if !errors.Is(err, ErrOutOfRange) || string(out) != "keep" {
		t.Errorf("out of range: %v, %q", err, out)
	}
	good, err := rc.EncodeRow(nil, makeRow(tbl, "1", "n", "v"))
	if err != nil {
		t.Fatal(err)
	}
	key := pkSuffix(t, tbl, makeRow(tbl, "1", "n", "v"))
	for _, bad := range [][]byte{nil, {0x02}, append(append([]byte(nil), good...), 0)} {
		if _, err := rc.DecodeRow(nil, key, bad); err == nil {
			t.Errorf("DecodeRow(%x) succeeded", bad)
		}
	}
	if _, err := rc.DecodeRow(nil, key[:2], good); err == nil {
		t.Error("DecodeRow with a truncated key succeeded")
	}
}

func TestRowDecodeAliasing(t *testing.T) {
	tbl := sysbenchTable()
	rc := NewRowCodec(tbl)
	row := sysbenchRow(tbl)
	value, err := rc.EncodeRow(nil, row)
	if err != nil {
		t.Fatal(err)
	}
	key := pkSuffix(t, tbl, row)
	got, err := rc.DecodeRow(nil, key, value)
	if err != nil {
		t.Fatal(err)
	}
	// Numbers live in a buffer of their own: appending to one must not
	// clobber another.
	_ = append(got[0].Raw(), "xxxxxxxx"...)
	if string(got[1].Raw()) != "4993" {
		t.Errorf("k clobbered: %q", got[1].Raw())
	}
	if !sameValue(got[0], row[0]) {
		t.Errorf("id: %v", got[0])
	}
}

// TestRowDecodeOwnsValues: decoded values never alias the stored value —
// it is the store's memory (memtable, block cache), and a write into a
// decoded value must not reach it. Clobbering the stored bytes after
// decoding leaves every decoded value intact, for every column type.
func TestRowDecodeOwnsValues(t *testing.T) {
	tbl := allTypesTable()
	rc := NewRowCodec(tbl)
	row := makeRow(tbl, "1", "Alice", "k\x00ey", "-128", "18446744073709551615", "-9223372036854775808", "-1.5", "3.141592653589793",
		"-12.500", "2024-01-31", "2024-01-31 13:45:00.123456", "2038-01-19 03:14:07", "-838:59:59.000", "2024",
		"large", "a,c,d", "\x0f\xff", "héllo wörld", "\x00\x01\xff", `{"a": [1, 2]}`, "pad", "12345678901234567890123456789012345", "255", "-8388608")
	value, err := rc.EncodeRow(nil, row)
	if err != nil {
		t.Fatal(err)
	}
	key := pkSuffix(t, tbl, row)
	for _, decode := range []struct {
		name string
		fn   func() ([]sqltypes.Value, error)
	}{
		{"DecodeRow", func() ([]sqltypes.Value, error) { return rc.DecodeRow(nil, key, value) }},
		{"DecodeRowBuf", func() ([]sqltypes.Value, error) {
			got, _, err := rc.DecodeRowBuf(nil, make([]byte, 0, 8), key, value)
			return got, err
		}},
	} {
		stored := append([]byte(nil), value...)
		got, err := decode.fn()
		if err != nil {
			t.Fatal(err)
		}
		for i := range value {
			value[i] = 0xAA
		}
		for i := range row {
			if !sameValue(got[i], row[i]) {
				t.Errorf("%s: column %s changed with the stored value: %v, want %v", decode.name, tbl.Columns[i].Name, got[i], row[i])
			}
		}
		copy(value, stored)
	}
}

func sysbenchTable() *catalog.Table {
	return &catalog.Table{Name: "sbtest1",
		Columns: []catalog.Column{
			{Name: "id", Type: sqltypes.Int32, AutoIncrement: true, Collation: collBinary},
			{Name: "k", Type: sqltypes.Int32, Collation: collBinary},
			{Name: "c", Type: sqltypes.Char, Length: 120, Collation: coll0900AICI},
			{Name: "pad", Type: sqltypes.Char, Length: 60, Collation: coll0900AICI},
		},
		Indexes: []*catalog.Index{
			{ID: 100, Name: "PRIMARY", Primary: true, Unique: true, Columns: []catalog.IndexColumn{{Col: 0}}},
			{ID: 101, Name: "k_1", Columns: []catalog.IndexColumn{{Col: 1}}},
		},
		AutoIncCol: 0,
	}
}

func sysbenchRow(tbl *catalog.Table) []sqltypes.Value {
	return makeRow(tbl, "123456", "4993",
		"68487932199-96439406143-93774651418-41631865787-96406072701-20604855487-25459966574-28203206787-41238978918-19503783441",
		"22195207048-70116052123-74140395089-76317954521-98694025897")
}

func TestRowNoAllocs(t *testing.T) {
	tbl := sysbenchTable()
	rc := NewRowCodec(tbl)
	row := sysbenchRow(tbl)
	key := pkSuffix(t, tbl, row)
	buf := make([]byte, 0, 512)
	dst := make([]sqltypes.Value, 0, 4)
	scratch := make([]byte, 0, 256)
	var err error
	if a := testing.AllocsPerRun(100, func() {
		if buf, err = rc.EncodeRow(buf[:0], row); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("EncodeRow: %.1f allocs", a)
	}
	if a := testing.AllocsPerRun(100, func() {
		if dst, scratch, err = rc.DecodeRowBuf(dst[:0], scratch[:0], key, buf); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("DecodeRowBuf: %.1f allocs", a)
	}
	if a := testing.AllocsPerRun(100, func() {
		if dst, err = rc.DecodeRow(dst[:0], key, buf); err != nil {
			t.Fatal(err)
		}
	}); a > 1 {
		t.Errorf("DecodeRow: %.1f allocs, want <= 1", a)
	}
	// Size: format + count + bitmap + varint k + two length-prefixed strings.
	if want := 1 + 1 + 1 + 2 + (1 + 119) + (1 + 59); len(buf) != want {
		t.Errorf("sysbench row value is %d bytes, want %d", len(buf), want)
	}
	_ = encoding.NullMarker
}

func BenchmarkEncodeRow(b *testing.B) {
	tbl := sysbenchTable()
	rc := NewRowCodec(tbl)
	row := sysbenchRow(tbl)
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf, _ = rc.EncodeRow(buf[:0], row)
	}
}

func BenchmarkDecodeRow(b *testing.B) {
	tbl := sysbenchTable()
	rc := NewRowCodec(tbl)
	row := sysbenchRow(tbl)
	value, _ := rc.EncodeRow(nil, row)
	key := pkSuffix(b, tbl, row)
	dst := make([]sqltypes.Value, 0, 4)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		dst, _ = rc.DecodeRow(dst[:0], key, value)
	}
}

func BenchmarkDecodeRowBuf(b *testing.B) {
	tbl := sysbenchTable()
	rc := NewRowCodec(tbl)
	row := sysbenchRow(tbl)
	value, _ := rc.EncodeRow(nil, row)
	key := pkSuffix(b, tbl, row)
	dst := make([]sqltypes.Value, 0, 4)
	buf := make([]byte, 0, 128)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		dst, buf, _ = rc.DecodeRowBuf(dst[:0], buf[:0], key, value)
	}
}
