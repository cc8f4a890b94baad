package coltype

import (
	"errors"
	"testing"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
)

func str(s string) sqltypes.Value { return sqltypes.NewVarChar(s) }
func num(s string) sqltypes.Value { return sqltypes.MakeTrusted(sqltypes.Int64, []byte(s)) }
func unum(s string) sqltypes.Value {
	return sqltypes.MakeTrusted(sqltypes.Uint64, []byte(s))
}
func flt(s string) sqltypes.Value { return sqltypes.MakeTrusted(sqltypes.Float64, []byte(s)) }
func dec(s string) sqltypes.Value { return sqltypes.MakeTrusted(sqltypes.Decimal, []byte(s)) }

// convCase is one store assignment. code is the error (strict) or warning
// code expected (0 = none); level is "Note" when a note is expected.
type convCase struct {
	def    string
	in     sqltypes.Value
	strict bool
	want   string
	code   uint16
	level  string
	msg    string
}

func runConvCases(t *testing.T, cases []convCase) {
	t.Helper()
	for _, tc := range cases {
		col := mustCol(t, tc.def)
		out, w, err := Convert(col, tc.in, tc.strict, 1)
		name := tc.def + " <- " + tc.in.String()
		if tc.strict {
			name += " (strict)"
		}
		if err != nil {
			var se *sqlerror.SQLError
			if !errors.As(err, &se) {
				t.Errorf("%s: non-SQL error %v", name, err)
				continue
			}
			if tc.want != "" || uint16(se.Number()) != tc.code || (tc.msg != "" && se.Message != tc.msg) {
				t.Errorf("%s: error %d %q, want value %q code %d %q", name, se.Number(), se.Message, tc.want, tc.code, tc.msg)
			}
			continue
		}
		if got := out.ToString(); got != tc.want {
			t.Errorf("%s: got %q, want %q", name, got, tc.want)
		}
		if out.Type() != col.Type {
			t.Errorf("%s: type %v, want %v", name, out.Type(), col.Type)
		}
		switch {
		case tc.code == 0 && w != nil:
			t.Errorf("%s: unexpected warning %+v", name, *w)
		case tc.code != 0 && w == nil:
			t.Errorf("%s: no warning, want %d", name, tc.code)
		case tc.code != 0:
			level := tc.level
			if level == "" {
				level = LevelWarning
			}
			if w.Code != tc.code || w.Level != level || (tc.msg != "" && w.Message != tc.msg) {
				t.Errorf("%s: warning %+v, want %s %d %q", name, *w, level, tc.code, tc.msg)
			}
		}
	}
}

func TestConvertIntegers(t *testing.T) {
	runConvCases(t, []convCase{
		{def: "c int", in: num("123"), strict: true, want: "123"},
		{def: "c int", in: str(" 42 "), strict: true, want: "42"},
		{def: "c int", in: str("2147483647"), strict: true, want: "2147483647"},
		{def: "c int", in: str("-2147483648"), strict: true, want: "-2147483648"},
		{def: "c int", in: num("2147483648"), strict: true, code: 1264, msg: "Out of range value for column 'c' at row 1"},
		{def: "c int", in: num("3000000000"), want: "2147483647", code: 1264, msg: "Out of range value for column 'c' at row 1"},
		{def: "c int", in: num("-3000000000"), want: "-2147483648", code: 1264},
		{def: "c tinyint", in: num("-129"), want: "-128", code: 1264},
		{def: "c tinyint unsigned", in: num("-1"), want: "0", code: 1264},
		{def: "c tinyint unsigned", in: num("-1"), strict: true, code: 1264},
		{def: "c tinyint unsigned", in: num("255"), strict: true, want: "255"},
		{def: "c bigint unsigned", in: unum("18446744073709551615"), strict: true, want: "18446744073709551615"},
		{def: "c bigint", in: unum("18446744073709551615"), want: "9223372036854775807", code: 1264},
		{def: "c bigint", in: str("-9223372036854775808"), strict: true, want: "-9223372036854775808"},
		{def: "c bigint", in: str("99999999999999999999999"), want: "9223372036854775807", code: 1264},
		{def: "c int", in: str("12abc"), strict: true, code: 1265, msg: "Data truncated for column 'c' at row 1"},
		{def: "c int", in: str("12abc"), want: "12", code: 1265},
		{def: "c int", in: str("abc"), strict: true, code: 1366, msg: "Incorrect integer value: 'abc' for column 'c' at row 1"},
		{def: "c int", in: str("abc"), want: "0", code: 1366},
		{def: "c int", in: str(""), want: "0", code: 1366},
		{def: "c int", in: str("12.5"), strict: true, want: "13"},
		{def: "c int", in: str("-12.5"), strict: true, want: "-13"},
		{def: "c int", in: str("1e3"), strict: true, want: "1000"},
		{def: "c int", in: dec("12.5"), strict: true, want: "13"},
		{def: "c int", in: flt("2.5"), strict: true, want: "2"},
		{def: "c int", in: flt("3.5"), strict: true, want: "4"},
		{def: "c int", in: flt("1e300"), want: "2147483647", code: 1264},
		{def: "c int", in: sqltypes.MakeTrusted(sqltypes.HexNum, []byte("0x41")), strict: true, want: "65"},
		{def: "c int", in: sqltypes.MakeTrusted(sqltypes.Date, []byte("2024-01-02")), strict: true, want: "20240102"},
		{def: "c bigint", in: sqltypes.MakeTrusted(sqltypes.Datetime, []byte("2024-01-02 03:04:05")), strict: true, want: "20240102030405"},
	})
}

func TestConvertDecimalAndFloat(t *testing.T) {
	runConvCases(t, []convCase{
		{def: "c decimal(5,2)", in: str("12.5"), strict: true, want: "12.50"},
		{def: "c decimal(5,2)", in: str("12.345"), strict: true, want: "12.35", code: 1265, level: LevelNote},
		{def: "c decimal(5,2)", in: str("-12.345"), strict: true, want: "-12.35", code: 1265, level: LevelNote},
		{def: "c decimal(5,2)", in: dec("12.344"), strict: true, want: "12.34", code: 1265, level: LevelNote},
		{def: "c decimal(5,2)", in: num("12345"), strict: true, code: 1264},
		{def: "c decimal(5,2)", in: num("12345"), want: "999.99", code: 1264},
		{def: "c decimal(5,2)", in: num("-12345"), want: "-999.99", code: 1264},
		{def: "c decimal(5,2)", in: str("999.995"), want: "999.99", code: 1264},
		{def: "c decimal(5,2)", in: str("1.2e1"), strict: true, want: "12.00"},
		{def: "c decimal(5,2)", in: str("-0.001"), strict: true, want: "0.00", code: 1265, level: LevelNote},
		{def: "c decimal(5,2)", in: flt("0.1"), strict: true, want: "0.10"},
		{def: "c decimal(5,2)", in: str("1e400"), want: "999.99", code: 1264},
		{def: "c decimal(5,2)", in: str("abc"), strict: true, code: 1366, msg: "Incorrect decimal value: 'abc' for column 'c' at row 1"},
		{def: "c decimal(5,2) unsigned", in: num("-1"), want: "0.00", code: 1264},
		{def: "c decimal(65,0)", in: str("12345678901234567890123456789012345"), strict: true, want: "12345678901234567890123456789012345"},
		{def: "c decimal(10,0)", in: str("1e-50"), strict: true, want: "0", code: 1265, level: LevelNote},
		{def: "c double", in: flt("1e20"), strict: true, want: "1e20"},
		{def: "c double", in: str("0.1"), strict: true, want: "0.1"},
		{def: "c double", in: num("123"), strict: true, want: "123"},
		{def: "c double", in: str("-0"), strict: true, want: "0"},
		{def: "c double", in: str("1e400"), strict: true, code: 1264},
		{def: "c double", in: str("x"), strict: true, code: 1366, msg: "Incorrect double value: 'x' for column 'c' at row 1"},
		{def: "c float", in: str("0.1"), strict: true, want: "0.1"},
		{def: "c float", in: str("3.14159265"), strict: true, want: "3.1415927"},
		{def: "c float", in: flt("1e39"), strict: true, code: 1264},
		{def: "c float", in: flt("-1e39"), want: "-3.4028235e38", code: 1264},
		{def: "c float(7,3)", in: str("1.23456"), strict: true, want: "1.235"},
		{def: "c float(7,3)", in: str("12345.6"), want: "9999.999", code: 1264},
		{def: "c double unsigned", in: num("-5"), want: "0", code: 1264},
	})
}

func TestConvertDates(t *testing.T) {
	dt := func(s string) sqltypes.Value { return sqltypes.MakeTrusted(sqltypes.Datetime, []byte(s)) }
	runConvCases(t, []convCase{
		{def: "c date", in: str("2024-01-02"), strict: true, want: "2024-01-02"},
		{def: "c date", in: str("2024-1-2"), strict: true, want: "2024-01-02"},
		{def: "c date", in: str("20240102"), strict: true, want: "2024-01-02"},
		{def: "c date", in: str("240102"), strict: true, want: "2024-01-02"},
		{def: "c date", in: str("24-1-2"), strict: true, want: "2024-01-02"},
		{def: "c date", in: str("99/12/31"), strict: true, want: "1999-12-31"},
		{def: "c date", in: num("20240102"), strict: true, want: "2024-01-02"},
		{def: "c date", in: num("240102"), strict: true, want: "2024-01-02"},
		{def: "c date", in: str("2024-02-29"), strict: true, want: "2024-02-29"},
		{def: "c date", in: str("2023-02-29"), strict: true, code: 1292, msg: "Incorrect date value: '2023-02-29' for column 'c' at row 1"},
		{def: "c date", in: str("2023-02-29"), want: "0000-00-00", code: 1265},
		{def: "c date", in: str("abc"), want: "0000-00-00", code: 1265},
		{def: "c date", in: str("abc"), strict: true, code: 1292},
		{def: "c date", in: str("2024-01-02 03:04:05"), strict: true, want: "2024-01-02", code: 1265, level: LevelNote},
		{def: "c date", in: str("2024-01-02abc"), strict: true, code: 1292},
		{def: "c date", in: str("2024-01-02abc"), want: "2024-01-02", code: 1265},
		{def: "c date", in: str("0000-00-00"), want: "0000-00-00"},
		{def: "c date", in: num("0"), want: "0000-00-00"},
		{def: "c date", in: str("0000-00-00"), strict: true, code: 1292, msg: "Incorrect date value: '0000-00-00' for column 'c' at row 1"},
		{def: "c date", in: str("2024-00-00"), want: "2024-00-00"},
		{def: "c date", in: str("2024-00-00"), strict: true, code: 1292},
		{def: "c datetime", in: str("2024-01-02 03:04:05"), strict: true, want: "2024-01-02 03:04:05"},
		{def: "c datetime", in: str("2024-01-02T03:04:05"), strict: true, want: "2024-01-02 03:04:05"},
		{def: "c datetime", in: str("2024-01-02 03:04"), strict: true, want: "2024-01-02 03:04:00"},
		{def: "c datetime", in: str("2024-01-02"), strict: true, want: "2024-01-02 00:00:00"},
		{def: "c datetime", in: str("20240102030405"), strict: true, want: "2024-01-02 03:04:05"},
		{def: "c datetime", in: num("20240102030405"), strict: true, want: "2024-01-02 03:04:05"},
		{def: "c datetime(2)", in: dec("20240102030405.5"), strict: true, want: "2024-01-02 03:04:05.50"},
		{def: "c datetime", in: str("2024-01-02 03:04:05.5"), strict: true, want: "2024-01-02 03:04:06"},
		{def: "c datetime(6)", in: str("2024-01-02 03:04:05.1234567"), strict: true, want: "2024-01-02 03:04:05.123457"},
		{def: "c datetime(6)", in: str("2024-01-02 03:04:05.1234564"), strict: true, want: "2024-01-02 03:04:05.123456"},
		{def: "c datetime(3)", in: str("2024-12-31 23:59:59.9999"), strict: true, want: "2025-01-01 00:00:00.000"},
		{def: "c datetime(6)", in: str("2024-01-02 03:04:05"), strict: true, want: "2024-01-02 03:04:05.000000"},
		{def: "c datetime", in: str("2024-01-02 24:00:00"), strict: true, code: 1292, msg: "Incorrect datetime value: '2024-01-02 24:00:00' for column 'c' at row 1"},
		{def: "c datetime", in: str("2024-01-02 24:00:00"), want: "0000-00-00 00:00:00", code: 1265},
		{def: "c datetime", in: dt("2024-01-02 03:04:05"), strict: true, want: "2024-01-02 03:04:05"},
		{def: "c timestamp", in: str("2024-01-02 03:04:05"), strict: true, want: "2024-01-02 03:04:05"},
		{def: "c timestamp", in: str("2040-01-01"), strict: true, code: 1292, msg: "Incorrect datetime value: '2040-01-01' for column 'c' at row 1"},
		{def: "c timestamp", in: str("2040-01-01"), want: "0000-00-00 00:00:00", code: 1264},
		{def: "c timestamp", in: str("1970-01-01 00:00:00"), strict: true, code: 1292},
		{def: "c timestamp", in: str("2038-01-19 03:14:07"), strict: true, want: "2038-01-19 03:14:07"},
	})
}

func TestConvertTimeYear(t *testing.T) {
	runConvCases(t, []convCase{
		{def: "c time", in: str("12:34:56"), strict: true, want: "12:34:56"},
		{def: "c time", in: str("-12:34:56"), strict: true, want: "-12:34:56"},
		{def: "c time", in: str("12:34"), strict: true, want: "12:34:00"},
		{def: "c time", in: str("1 02:03:04"), strict: true, want: "26:03:04"},
		{def: "c time", in: str("123"), strict: true, want: "00:01:23"},
		{def: "c time", in: num("123456"), strict: true, want: "12:34:56"},
		{def: "c time", in: num("-123456"), strict: true, want: "-12:34:56"},
		{def: "c time(2)", in: str("12:34:56.789"), strict: true, want: "12:34:56.79"},
		{def: "c time", in: str("838:59:59"), strict: true, want: "838:59:59"},
		{def: "c time", in: str("839:00:00"), strict: true, code: 1292, msg: "Incorrect time value: '839:00:00' for column 'c' at row 1"},
		{def: "c time", in: str("839:00:00"), want: "838:59:59", code: 1264},
		{def: "c time", in: str("-839:00:00"), want: "-838:59:59", code: 1264},
		{def: "c time", in: str("12:61:00"), strict: true, code: 1292},
		{def: "c time", in: str("12:61:00"), want: "00:00:00", code: 1265},
		{def: "c time", in: str("abc"), want: "00:00:00", code: 1265},
		{def: "c time", in: str("2024-01-02 03:04:05"), strict: true, want: "03:04:05", code: 1265, level: LevelNote},
		{def: "c year", in: num("2024"), strict: true, want: "2024"},
		{def: "c year", in: num("0"), strict: true, want: "0000"},
		{def: "c year", in: str("0"), strict: true, want: "2000"},
		{def: "c year", in: str("00"), strict: true, want: "2000"},
		{def: "c year", in: str("0000"), strict: true, want: "0000"},
		{def: "c year", in: num("5"), strict: true, want: "2005"},
		{def: "c year", in: str("69"), strict: true, want: "2069"},
		{def: "c year", in: num("70"), strict: true, want: "1970"},
		{def: "c year", in: num("1901"), strict: true, want: "1901"},
		{def: "c year", in: num("2155"), strict: true, want: "2155"},
		{def: "c year", in: num("1900"), strict: true, code: 1264},
		{def: "c year", in: num("2156"), want: "0000", code: 1264},
		{def: "c year", in: str("abc"), want: "0000", code: 1366, msg: "Incorrect integer value: 'abc' for column 'c' at row 1"},
	})
}

func TestConvertStrings(t *testing.T) {
	bin := func(s string) sqltypes.Value { return sqltypes.MakeTrusted(sqltypes.VarBinary, []byte(s)) }
	runConvCases(t, []convCase{
		{def: "c varchar(3)", in: str("abc"), strict: true, want: "abc"},
		{def: "c varchar(3)", in: str("héé"), strict: true, want: "héé"},
		{def: "c varchar(3)", in: str("abcd"), strict: true, code: 1406, msg: "Data too long for column 'c' at row 1"},
		{def: "c varchar(3)", in: str("abcd"), want: "abc", code: 1265, msg: "Data truncated for column 'c' at row 1"},
		{def: "c varchar(3)", in: str("ab    "), strict: true, want: "ab ", code: 1265, level: LevelNote},
		{def: "c varchar(3)", in: num("12"), strict: true, want: "12"},
		{def: "c varchar(10)", in: flt("1e20"), strict: true, want: "1e20"},
		{def: "c char(3)", in: str("ab  "), strict: true, want: "ab"},
		{def: "c char(3)", in: str("abc   "), strict: true, want: "abc"},
		{def: "c char(3)", in: str("abcd"), strict: true, code: 1406},
		{def: "c tinytext", in: str(string(make([]byte, 256))), strict: true, code: 1406},
		{def: "c varchar(10) character set latin1", in: str("é"), strict: true, want: "é"},
		{def: "c varchar(10) character set latin1", in: str("€"), strict: true, want: "€"},
		{def: "c varchar(10) character set latin1", in: str("😀"), strict: true, code: 1366, msg: `Incorrect string value: '\xF0\x9F\x98\x80' for column 'c' at row 1`},
		{def: "c varchar(10) character set utf8mb3", in: str("a😀"), want: "a?", code: 1366},
		{def: "c varchar(10)", in: bin("\xff"), strict: true, code: 1366, msg: `Incorrect string value: '\xFF' for column 'c' at row 1`},
		{def: "c varchar(10) character set latin1", in: bin("\xe9"), strict: true, want: "é"},
		{def: "c binary(3)", in: str("a"), strict: true, want: "a\x00\x00"},
		{def: "c binary(3)", in: str("abcd"), strict: true, code: 1406},
		{def: "c binary(3)", in: str("abcd"), want: "abc", code: 1265},
		{def: "c varbinary(3)", in: sqltypes.MakeTrusted(sqltypes.HexNum, []byte("0x414243")), strict: true, want: "ABC"},
		{def: "c bit(4)", in: num("5"), strict: true, want: "\x05"},
		{def: "c bit(4)", in: num("16"), strict: true, code: 1406},
		{def: "c bit(4)", in: num("16"), want: "\x0f", code: 1264},
		{def: "c bit(12)", in: sqltypes.MakeTrusted(sqltypes.BitNum, []byte("0b101")), strict: true, want: "\x00\x05"},
		{def: "c bit(8)", in: str("a"), strict: true, want: "a"},
		{def: "c enum('a','b')", in: str("A"), strict: true, want: "a"},
		{def: "c enum('a','b')", in: str("b  "), strict: true, want: "b"},
		{def: "c enum('a','b')", in: num("2"), strict: true, want: "b"},
		{def: "c enum('a','b')", in: str("1"), strict: true, want: "a"},
		{def: "c enum('a','b')", in: num("3"), strict: true, code: 1265},
		{def: "c enum('a','b')", in: num("0"), want: "", code: 1265},
		{def: "c enum('a','b')", in: str("x"), strict: true, code: 1265, msg: "Data truncated for column 'c' at row 1"},
		{def: "c enum('a','b') collate utf8mb4_bin", in: str("A"), want: "", code: 1265},
		{def: "c set('x','y','z')", in: str("z,X"), strict: true, want: "x,z"},
		{def: "c set('x','y','z')", in: str(""), strict: true, want: ""},
		{def: "c set('x','y','z')", in: num("5"), strict: true, want: "x,z"},
		{def: "c set('x','y','z')", in: num("8"), strict: true, code: 1265},
		{def: "c set('x','y','z')", in: str("x,w"), want: "x", code: 1265},
		{def: "c json", in: str(`{"b": 1, "a": [1, 2]}`), strict: true, want: `{"a": [1, 2], "b": 1}`},
		{def: "c json", in: str(`{bad`), code: 3140},
		{def: "c json", in: num("5"), strict: true, want: "5"},
	})
}

func TestConvertNull(t *testing.T) {
	col := mustCol(t, "c int not null")
	out, w, err := Convert(col, sqltypes.NULL, true, 1)
	if !out.IsNull() || w != nil || err != nil {
		t.Fatalf("NULL: got %v %v %v", out, w, err)
	}
}

func TestConvertRowNumber(t *testing.T) {
	col := mustCol(t, "c tinyint")
	_, _, err := Convert(col, num("1000"), true, 7)
	if err == nil || err.Error() != "Out of range value for column 'c' at row 7 (errno 1264) (sqlstate 22003)" {
		t.Fatalf("got %v", err)
	}
}

func TestImplicitDefault(t *testing.T) {
	cases := map[string]string{
		"c int":           "0",
		"c decimal(5,2)":  "0.00",
		"c double":        "0",
		"c varchar(3)":    "",
		"c binary(2)":     "\x00\x00",
		"c date":          "0000-00-00",
		"c datetime(3)":   "0000-00-00 00:00:00.000",
		"c timestamp":     "0000-00-00 00:00:00",
		"c time":          "00:00:00",
		"c year":          "0000",
		"c enum('x','y')": "x",
		"c set('x','y')":  "",
		"c bit(10)":       "\x00\x00",
		"c json":          "null",
	}
	for def, want := range cases {
		col := mustCol(t, def)
		v := ImplicitDefault(col)
		if v.ToString() != want || v.Type() != col.Type {
			t.Errorf("%s: got %q (%v), want %q", def, v.ToString(), v.Type(), want)
		}
	}
}
