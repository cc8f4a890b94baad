package codec

import (
	"bytes"
	"errors"
	"testing"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/encoding"
)

// orderCase lists values of one column in strictly ascending SQL order.
type orderCase struct {
	col  catalog.Column
	vals []string
}

func orderCases() []orderCase {
	return []orderCase{
		{intCol("i8", sqltypes.Int8), []string{"-128", "-127", "-1", "0", "1", "127"}},
		{intCol("u8", sqltypes.Uint8), []string{"0", "1", "128", "255"}},
		{intCol("i16", sqltypes.Int16), []string{"-32768", "-256", "-1", "0", "255", "256", "32767"}},
		{intCol("u16", sqltypes.Uint16), []string{"0", "255", "256", "65535"}},
		{intCol("i24", sqltypes.Int24), []string{"-8388608", "-1", "0", "8388607"}},
		{intCol("u24", sqltypes.Uint24), []string{"0", "16777215"}},
		{intCol("i32", sqltypes.Int32), []string{"-2147483648", "-65536", "-1", "0", "1", "65536", "2147483647"}},
		{intCol("u32", sqltypes.Uint32), []string{"0", "1", "4294967295"}},
		{intCol("i64", sqltypes.Int64), []string{"-9223372036854775808", "-4294967296", "-1", "0", "1", "4294967296", "9223372036854775807"}},
		{intCol("u64", sqltypes.Uint64), []string{"0", "1", "9223372036854775808", "18446744073709551615"}},
		{intCol("y", sqltypes.Year), []string{"0000", "1901", "1999", "2024", "2155"}},
		{intCol("f", sqltypes.Float32), []string{"-3.4028235e+38", "-1.5", "-1e-10", "0", "1e-10", "1.5", "3.4028235e+38"}},
		{intCol("d", sqltypes.Float64), []string{"-1.7976931348623157e+308", "-2", "-0.5", "0", "0.5", "2", "1e+300"}},
		{catalog.Column{Name: "dec", Type: sqltypes.Decimal, Length: 40, Scale: 3, Collation: collBinary},
			[]string{"-12345678901234567890123456789.123", "-100.000", "-99.990", "-0.500", "-0.050", "0.000", "0.050", "0.500", "99.990", "100.000", "12345678901234567890123456789.123"}},
		{intCol("date", sqltypes.Date), []string{"0000-00-00", "1000-01-01", "1999-12-31", "2000-01-01", "2024-02-29", "9999-12-31"}},
		{scaled("dt0", sqltypes.Datetime, 0), []string{"0000-00-00 00:00:00", "1000-01-01 00:00:00", "2024-01-31 13:45:00", "2024-01-31 13:45:01", "2024-02-01 00:00:00", "9999-12-31 23:59:59"}},
		{scaled("dt6", sqltypes.Datetime, 6), []string{"2024-01-31 13:45:00.000000", "2024-01-31 13:45:00.000001", "2024-01-31 13:45:00.999999", "2024-01-31 13:45:01.000000"}},
		{scaled("dt3", sqltypes.Timestamp, 3), []string{"1970-01-01 00:00:01.000", "2024-01-31 13:45:00.001", "2024-01-31 13:45:00.999", "2038-01-19 03:14:07.999"}},
		{scaled("dt1", sqltypes.Datetime, 1), []string{"2024-01-31 13:45:00.0", "2024-01-31 13:45:00.1", "2024-01-31 13:45:00.9"}},
		{scaled("t0", sqltypes.Time, 0), []string{"-838:59:59", "-100:00:00", "-01:00:00", "-00:00:01", "00:00:00", "00:00:01", "23:59:59", "100:00:00", "838:59:59"}},
		{scaled("t6", sqltypes.Time, 6), []string{"-838:59:59.000000", "-00:00:01.000000", "-00:00:00.500000", "-00:00:00.000001", "00:00:00.000000", "00:00:00.000001", "00:00:00.500000", "838:59:59.000000"}},
		{scaled("t4", sqltypes.Time, 4), []string{"-12:00:00.5000", "-12:00:00.0001", "12:00:00.0000", "12:00:00.0001"}},
		{enumCol("e", sqltypes.Enum, "zebra", "apple", "mango"), []string{"", "zebra", "apple", "mango"}},
		{enumCol("s", sqltypes.Set, "a", "b", "c"), []string{"", "a", "b", "a,b", "c", "a,c", "a,b,c"}},
		{catalog.Column{Name: "bit", Type: sqltypes.Bit, Length: 12, Collation: collBinary}, []string{"\x00\x00", "\x00\x01", "\x00\xff", "\x01\x00", "\x0f\xff"}},
		{intCol("vb", sqltypes.VarBinary), []string{"", "\x00", "\x00\x00", "\x00\x01", "\x01", "a", "a\x00", "a\x00b", "ab", "b", "\xff", "\xff\x00"}},
		{intCol("blob", sqltypes.Blob), []string{"", "A", "a", "a ", "ab"}},
		{textCol("gci", sqltypes.VarChar, collGeneralCI), []string{"", "a", "B", "ba", "c", "Ω"}},
		{textCol("ai", sqltypes.VarChar, coll0900AICI), []string{"", "a", "a ", "B", "ba", "c", "z"}},
		{textCol("bin", sqltypes.Char, collBin), []string{"", "A", "B", "a", "b", "é"}},
	}
}

func TestKeyOrder(t *testing.T) {
	for _, c := range orderCases() {
		t.Run(c.col.Name, func(t *testing.T) {
			for _, desc := range []bool{false, true} {
				keys := [][]byte{mustKey(t, &c.col, sqltypes.NULL, desc)}
				for _, s := range c.vals {
					keys = append(keys, mustKey(t, &c.col, val(c.col.Type, s), desc))
				}
				for i := 1; i < len(keys); i++ {
					got := bytes.Compare(keys[i-1], keys[i])
					if (!desc && got >= 0) || (desc && got <= 0) {
						name := "NULL"
						if i > 1 {
							name = c.vals[i-2]
						}
						t.Fatalf("desc=%v: key(%q)=%x vs key(%q)=%x: compare %d", desc, name, keys[i-1], c.vals[i-1], keys[i], got)
					}
				}
			}
		})
	}
}

func mustKey(t *testing.T, col *catalog.Column, v sqltypes.Value, desc bool) []byte {
	t.Helper()
	k, err := AppendKey(nil, col, v, 0, desc)
	if err != nil {
		t.Fatalf("AppendKey(%s, %v): %v", col.Name, v, err)
	}
	return k
}

func TestKeyRoundTripAndSkip(t *testing.T) {
	trailer := []byte{0x01, 0x7f}
	for _, c := range orderCases() {
		t.Run(c.col.Name, func(t *testing.T) {
			vals := []sqltypes.Value{sqltypes.NULL}
			for _, s := range c.vals {
				vals = append(vals, val(c.col.Type, s))
			}
			for _, desc := range []bool{false, true} {
				for _, v := range vals {
					k := append(mustKey(t, &c.col, v, desc), trailer...)
					rest, err := SkipKey(k, &c.col, desc)
					if err != nil || !bytes.Equal(rest, trailer) {
						t.Fatalf("SkipKey(%v, desc=%v): rest %x err %v", v, desc, rest, err)
					}
					if !KeyDecodable(&c.col) {
						if _, _, err := DecodeKey(k, &c.col, desc, nil); err == nil {
							t.Fatalf("DecodeKey of non-decodable %s succeeded", c.col.Name)
						}
						continue
					}
					rest, got, err := DecodeKey(k, &c.col, desc, []byte("junk"))
					if err != nil || !bytes.Equal(rest, trailer) {
						t.Fatalf("DecodeKey(%v, desc=%v): rest %x err %v", v, desc, rest, err)
					}
					if got.IsNull() != v.IsNull() || (!v.IsNull() && (got.Type() != c.col.Type || !bytes.Equal(got.Raw(), v.Raw()))) {
						t.Fatalf("DecodeKey(desc=%v): got %v want %v", desc, got, v)
					}
				}
			}
		})
	}
}

func TestKeyDecodable(t *testing.T) {
	for _, c := range []struct {
		col  catalog.Column
		want bool
	}{
		{intCol("i", sqltypes.Int32), true},
		{intCol("u", sqltypes.Uint64), true},
		{intCol("dt", sqltypes.Datetime), true},
		{intCol("vb", sqltypes.VarBinary), true},
		{enumCol("e", sqltypes.Enum, "a"), true},
		{catalog.Column{Name: "dec", Type: sqltypes.Decimal, Scale: 2}, true},
		{intCol("f", sqltypes.Float32), false},
		{intCol("d", sqltypes.Float64), false},
		{textCol("c", sqltypes.VarChar, collGeneralCI), false},
		{textCol("c", sqltypes.Text, collBin), false},
		{textCol("c", sqltypes.VarChar, collBinary), true},
	} {
		if got := KeyDecodable(&c.col); got != c.want {
			t.Errorf("KeyDecodable(%s %v) = %v want %v", c.col.Name, c.col.Type, got, c.want)
		}
	}
}

// TestKeyCollations checks equality and order of text keys per collation.
func TestKeyCollations(t *testing.T) {
	type rel struct {
		a, b string
		cmp  int
	}
	for _, c := range []struct {
		coll  catalog.Column
		pairs []rel
	}{
		{textCol("general_ci", sqltypes.VarChar, collGeneralCI), []rel{
			{"a", "A", 0}, {"a", "a ", 0}, {"A", "a  ", 0}, {"a", "B", -1}, {"b", "A", 1}, {"abc", "ABC", 0},
			{"a", "a\t", -1}, {"", " ", 0},
		}},
		{textCol("0900_ai_ci", sqltypes.VarChar, coll0900AICI), []rel{
			{"a", "A", 0}, {"e", "é", 0}, {"E", "è", 0}, {"resume", "résumé", 0}, {"a", "B", -1},
			{"a", "a ", -1}, // NO PAD
		}},
		{textCol("utf8mb4_bin", sqltypes.VarChar, collBin), []rel{
			{"a", "A", 1}, {"a", "a ", 0}, {"A", "B", -1}, {"a", "B", 1},
		}},
		{textCol("binary_text", sqltypes.VarChar, collBinary), []rel{
			{"a", "A", 1}, {"a", "a ", -1},
		}},
		{intCol("varbinary", sqltypes.VarBinary), []rel{
			{"a", "A", 1}, {"a", "a ", -1}, {"a\x00", "a", 1},
		}},
	} {
		for _, p := range c.pairs {
			ka := mustKey(t, &c.coll, val(c.coll.Type, p.a), false)
			kb := mustKey(t, &c.coll, val(c.coll.Type, p.b), false)
			if got := bytes.Compare(ka, kb); got != p.cmp {
				t.Errorf("%s: key(%q) vs key(%q) = %d want %d (%x vs %x)", c.coll.Name, p.a, p.b, got, p.cmp, ka, kb)
			}
		}
	}
}

func TestKeyPrefix(t *testing.T) {
	col := textCol("c", sqltypes.VarChar, collGeneralCI)
	key := func(s string, prefix int) []byte {
		k, err := AppendKey(nil, &col, val(col.Type, s), prefix, false)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	if !bytes.Equal(key("abcdef", 3), key("ABCxyz", 3)) {
		t.Error("prefix 3: abcdef and ABCxyz should share a key")
	}
	if !bytes.Equal(key("éèx", 2), key("ÉÈ", 0)) {
		t.Error("prefix counts characters, not bytes")
	}
	if !bytes.Equal(key("ab  cd", 3), key("ab", 0)) {
		t.Error("prefix then PAD SPACE strip")
	}
	if bytes.Compare(key("abc", 3), key("abd", 3)) >= 0 {
		t.Error("prefix keys lost order")
	}
	bin := intCol("b", sqltypes.VarBinary)
	kb, err := AppendKey(nil, &bin, val(bin.Type, "\xc3\xa9xyz"), 2, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := encoding.EncodeBytesAsc([]byte{encoding.NotNullMarker}, []byte("\xc3\xa9")); !bytes.Equal(kb, want) {
		t.Errorf("binary prefix counts bytes: got %x want %x", kb, want)
	}
}

func TestKeyErrors(t *testing.T) {
	for _, c := range []struct {
		col  catalog.Column
		v    string
		want error
	}{
		{intCol("i8", sqltypes.Int8), "128", ErrOutOfRange},
		{intCol("i8", sqltypes.Int8), "-129", ErrOutOfRange},
		{intCol("u8", sqltypes.Uint8), "256", ErrOutOfRange},
		{intCol("u8", sqltypes.Uint8), "-1", ErrBadValue},
		{intCol("i32", sqltypes.Int32), "2147483648", ErrOutOfRange},
		{intCol("i64", sqltypes.Int64), "9223372036854775808", ErrOutOfRange},
		{intCol("u64", sqltypes.Uint64), "18446744073709551616", ErrOutOfRange},
		{intCol("i32", sqltypes.Int32), "12a", ErrBadValue},
		{intCol("i32", sqltypes.Int32), "", ErrBadValue},
		{intCol("y", sqltypes.Year), "1800", ErrOutOfRange},
		{intCol("f", sqltypes.Float64), "x", ErrBadValue},
		{catalog.Column{Name: "dec", Type: sqltypes.Decimal}, "1e5", ErrBadValue},
		{intCol("date", sqltypes.Date), "2024-13-01", ErrOutOfRange},
		{intCol("date", sqltypes.Date), "2024/01/01", ErrBadValue},
		{scaled("dt", sqltypes.Datetime, 0), "2024-01-01 24:00:00", ErrOutOfRange},
		{scaled("dt", sqltypes.Datetime, 6), "2024-01-01 10:00:00.1234567", ErrBadValue},
		{scaled("t", sqltypes.Time, 0), "839:00:00", ErrOutOfRange},
		{scaled("t", sqltypes.Time, 0), "12:60:00", ErrOutOfRange},
		{enumCol("e", sqltypes.Enum, "a", "b"), "c", ErrBadValue},
		{enumCol("s", sqltypes.Set, "a", "b"), "a,c", ErrBadValue},
		{catalog.Column{Name: "bit", Type: sqltypes.Bit, Length: 64}, "\x01\x00\x00\x00\x00\x00\x00\x00\x00", ErrOutOfRange},
		{textCol("c", sqltypes.VarChar, 0), "x", ErrUnknownCollation},
	} {
		b := []byte("keep")
		out, err := AppendKey(b, &c.col, val(c.col.Type, c.v), 0, false)
		if !errors.Is(err, c.want) {
			t.Errorf("AppendKey(%s, %q): err %v want %v", c.col.Name, c.v, err, c.want)
		}
		if string(out) != "keep" {
			t.Errorf("AppendKey(%s, %q) on error returned %q", c.col.Name, c.v, out)
		}
	}
}

func TestKeyEnumCaseInsensitive(t *testing.T) {
	col := enumCol("e", sqltypes.Enum, "Small", "Large")
	if !bytes.Equal(mustKey(t, &col, val(col.Type, "small"), false), mustKey(t, &col, val(col.Type, "Small"), false)) {
		t.Error("enum member lookup should ignore case")
	}
}

func TestKeyCorrupt(t *testing.T) {
	col := intCol("i", sqltypes.Int32)
	for _, in := range [][]byte{nil, {0x05}, {encoding.NotNullMarker, 1, 2}} {
		if _, err := SkipKey(in, &col, false); err == nil {
			t.Errorf("SkipKey(%x): expected error", in)
		}
		if _, _, err := DecodeKey(in, &col, false, nil); err == nil {
			t.Errorf("DecodeKey(%x): expected error", in)
		}
	}
	e := enumCol("e", sqltypes.Enum, "a")
	if _, _, err := DecodeKey([]byte{encoding.NotNullMarker, 0, 9}, &e, false, nil); !errors.Is(err, ErrCorruptRow) {
		t.Errorf("enum index out of range: %v", err)
	}
}

// TestKeyCompositeOrder checks a two-part key (a INT, b VARCHAR DESC) sorts
// by a then b descending, with the variable-length part first as well.
func TestKeyCompositeOrder(t *testing.T) {
	a := intCol("a", sqltypes.Int32)
	b := textCol("b", sqltypes.VarChar, collGeneralCI)
	rows := [][2]string{{"-1", "z"}, {"-1", "b"}, {"-1", "a"}, {"0", "ab"}, {"0", "a"}, {"5", "c"}}
	var prev []byte
	for i, r := range rows {
		k := mustKey(t, &a, val(a.Type, r[0]), false)
		k = append(k, mustKey(t, &b, val(b.Type, r[1]), true)...)
		if i > 0 && bytes.Compare(prev, k) >= 0 {
			t.Fatalf("row %d %v not after row %d: %x vs %x", i, r, i-1, prev, k)
		}
		prev = k
	}
	// Text first (ascending), int second: prefix-free text keeps "a" < "ab".
	var keys [][]byte
	for _, r := range [][2]string{{"a", "9"}, {"ab", "-5"}, {"b", "0"}} {
		k := mustKey(t, &b, val(b.Type, r[0]), false)
		keys = append(keys, append(k, mustKey(t, &a, val(a.Type, r[1]), false)...))
	}
	for i := 1; i < len(keys); i++ {
		if bytes.Compare(keys[i-1], keys[i]) >= 0 {
			t.Fatalf("text-first composite out of order at %d", i)
		}
	}
}

func TestKeyNoAllocs(t *testing.T) {
	col := intCol("id", sqltypes.Int32)
	v := sqltypes.NewInt32(123456)
	txt := textCol("c", sqltypes.Char, collGeneralCI)
	tv := val(txt.Type, "68487932199-96439406143-93774651418-41631865787-96406072701")
	buf := make([]byte, 0, 512)
	allocs := testing.AllocsPerRun(100, func() {
		var err error
		if buf, err = AppendKey(buf[:0], &col, v, 0, false); err != nil {
			t.Fatal(err)
		}
		if buf, err = AppendKey(buf, &txt, tv, 0, true); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("AppendKey allocates %.1f times per run", allocs)
	}
}

func BenchmarkAppendKeyInt(b *testing.B) {
	col := intCol("id", sqltypes.Int32)
	v := sqltypes.NewInt32(123456)
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf, _ = AppendKey(buf[:0], &col, v, 0, false)
	}
}

func BenchmarkAppendKeyText(b *testing.B) {
	for _, coll := range []catalog.Column{textCol("general_ci", sqltypes.Char, collGeneralCI), textCol("0900_ai_ci", sqltypes.Char, coll0900AICI)} {
		b.Run(coll.Name, func(b *testing.B) {
			v := val(coll.Type, "68487932199-96439406143-93774651418-41631865787-96406072701")
			buf := make([]byte, 0, 512)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				buf, _ = AppendKey(buf[:0], &coll, v, 0, false)
			}
		})
	}
}

func BenchmarkDecodeKeyInt(b *testing.B) {
	col := intCol("id", sqltypes.Int32)
	k, _ := AppendKey(nil, &col, sqltypes.NewInt32(123456), 0, false)
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, err := DecodeKey(k, &col, false, buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}
