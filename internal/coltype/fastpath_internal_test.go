package coltype

import (
	"testing"
	"time"
	"unicode/utf8"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

// TestCutChars: the byte length of a string's first n characters, with the
// ASCII word-at-a-time prefix and the rune-by-rune rest agreeing with a
// plain count.
func TestCutChars(t *testing.T) {
	for _, s := range []string{"", "a", "abcdefgh", "abcdefghijklmnopq", "héllo wörld", "abcdefgh€ijklmnop", "€€€", "abcdefg\xffh"} {
		b := []byte(s)
		for n := 0; n <= len(b)+2; n++ {
			want, i := 0, 0
			for k := 0; k < n && i < len(b); k++ {
				_, size := utf8.DecodeRune(b[i:])
				i += size
			}
			want = i
			if got := cutChars(b, n); got != want {
				t.Errorf("cutChars(%q, %d) = %d, want %d", s, n, got, want)
			}
		}
	}
}

// TestDigitText: only plain digit strings that fit take the fast path.
func TestDigitText(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "007": 7, "1234567890123456789": 1234567890123456789,
		"": -1, "-1": -1, "+1": -1, " 1": -1, "1.0": -1, "1e3": -1, "12345678901234567890": -1, "１": -1} {
		got, ok := digitText(sqltypes.NewVarChar(in))
		if want < 0 && ok || want >= 0 && (!ok || got != uint64(want)) {
			t.Errorf("digitText(%q) = %d %v, want %d", in, got, ok, want)
		}
	}
	if _, ok := digitText(sqltypes.NewVarBinary("12")); ok {
		t.Error("binary string took the text path")
	}
}

// TestCanonicalFastPaths: text already in the stored form is kept as it
// is (integers, dates, datetimes, ASCII strings); the result, warning and
// error are the ones the general conversion gives — reached here through
// the same text as a binary string, which no fast path takes.
func TestCanonicalFastPaths(t *testing.T) {
	cols := []*catalog.Column{
		{Name: "i", Type: sqltypes.Int32}, {Name: "u", Type: sqltypes.Uint32, Unsigned: true},
		{Name: "ti", Type: sqltypes.Int8}, {Name: "ub", Type: sqltypes.Uint64, Unsigned: true},
		{Name: "d", Type: sqltypes.Date}, {Name: "dt", Type: sqltypes.Datetime}, {Name: "dt3", Type: sqltypes.Datetime, Scale: 3},
		{Name: "dt6", Type: sqltypes.Datetime, Scale: 6},
	}
	inputs := []string{"0", "7", "007", "127", "128", "-1", "4294967295", "4294967296", "18446744073709551615", "2147483647", "2147483648",
		"2024-02-29", "2023-02-29", "2000-02-29", "1900-02-29", "0000-00-00", "2024-00-10", "2024-13-01", "2024-04-31", "0001-01-01", "9999-12-31",
		"2024-02-29 23:59:59", "2024-02-29 24:00:00", "2024-01-01 10:60:00", "2024-01-01 10:00:60", "2024-01-01 10:00:00.123",
		"2024-01-01 10:00:00.1234", "2024-01-01 10:00:00.123456", "2024-01-01 10:00:00.9999995", "2024-1-01 10:00:00", "2024-01-01T10:00:00",
		"2024-01-01 10:00:00 ", "0000-00-00 00:00:00", "2024/01/01 10:00:00", "2024-01-01 1a:00:00"}
	for _, col := range cols {
		for _, in := range inputs {
			for _, strict := range []bool{true, false} {
				got, gw, gerr := Convert(col, sqltypes.NewVarChar(in), strict, 1)
				want, ww, werr := Convert(col, sqltypes.NewVarBinary(in), strict, 1)
				if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() ||
					(gw == nil) != (ww == nil) || gw != nil && gw.Message != ww.Message ||
					gerr == nil && (got.ToString() != want.ToString() || got.Type() != want.Type()) {
					t.Errorf("%s strict=%v %q: text gives %v %v %v, binary %v %v %v", col.Name, strict, in, got, gw, gerr, want, ww, werr)
				}
			}
		}
	}
	// ASCII and non-ASCII strings agree with a plain character count.
	vc := &catalog.Column{Name: "s", Type: sqltypes.VarChar, Length: 5, Collation: 45}
	for _, in := range []string{"", "abc", "abcde", "abcdef", "abcde   ", "héllo", "héllo!", "ab\xffc"} {
		got, gw, gerr := Convert(vc, sqltypes.NewVarChar(in), false, 1)
		want := in
		if utf8.ValidString(in) {
			r := []rune(in)
			want = string(r[:min(len(r), 5)])
		}
		if gerr != nil || utf8.ValidString(in) && got.ToString() != want || (len([]rune(in)) > 5 || !utf8.ValidString(in)) != (gw != nil) {
			t.Errorf("varchar(5) %q: %q %v %v", in, got.ToString(), gw, gerr)
		}
	}
}

// TestDaysIn: the month lengths agree with time.Date's calendar for every
// month of years 0-9999.
func TestDaysIn(t *testing.T) {
	for y := 0; y <= 9999; y++ {
		for m := 1; m <= 12; m++ {
			if got, want := daysIn(m, y), time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day(); got != want {
				t.Fatalf("daysIn(%d, %d) = %d, want %d", m, y, got, want)
			}
		}
	}
}
