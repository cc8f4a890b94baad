package builtins

import (
	"testing"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
)

func TestSubstringIndex(t *testing.T) {
	for _, c := range []struct {
		s, d string
		n    int64
		want string
	}{
		{"www.mysql.com", ".", 2, "www.mysql"},
		{"www.mysql.com", ".", -2, "mysql.com"},
		{"www.mysql.com", ".", 1, "www"},
		{"www.mysql.com", ".", -1, "com"},
		{"www.mysql.com", ".", 0, ""},
		{"www.mysql.com", ".", 9, "www.mysql.com"},
		{"www.mysql.com", ".", -9, "www.mysql.com"},
		{"a||b||c", "||", 2, "a||b"},
		{"a||b||c", "||", -2, "b||c"},
		{"abc", "", 1, ""},
		{"aXbxc", "x", 1, "aXb"},
	} {
		if got := substringIndex(c.s, c.d, c.n); got != c.want {
			t.Errorf("substringIndex(%q, %q, %d) = %q, want %q", c.s, c.d, c.n, got, c.want)
		}
	}
}

func TestFindInSet(t *testing.T) {
	ci := collations.ID(collations.CollationUtf8mb4ID)
	for _, c := range []struct {
		s, list string
		coll    collations.ID
		want    int64
	}{
		{"b", "a,b,c", ci, 2},
		{"B", "a,b,c", ci, 2},
		{"B", "a,b,c", collations.CollationBinaryID, 0},
		{"", "a,,b", ci, 2},
		{"", "", ci, 0},
		{"a,b", "a,b", ci, 0},
		{"c", "a,b,c", ci, 3},
	} {
		if got := findInSet(c.s, c.list, c.coll); got != c.want {
			t.Errorf("findInSet(%q, %q) = %d, want %d", c.s, c.list, got, c.want)
		}
	}
}

func TestFormat(t *testing.T) {
	call := func(args ...sqltypes.Value) string {
		t.Helper()
		v, err := fnFormat(&testEnv{}, args)
		if err != nil {
			t.Fatal(err)
		}
		return v.ToString()
	}
	dec := func(s string) sqltypes.Value { return sqltypes.MakeTrusted(sqltypes.Decimal, []byte(s)) }
	for _, c := range []struct {
		got, want string
	}{
		{call(dec("12332.123456"), sqltypes.NewInt64(4)), "12,332.1235"},
		{call(dec("2.5"), sqltypes.NewInt64(0)), "3"},
		{call(sqltypes.NewFloat64(2.5), sqltypes.NewInt64(0)), "2"},
		{call(sqltypes.NewFloat64(1.005), sqltypes.NewInt64(2)), "1.00"},
		{call(sqltypes.NewFloat64(0.1), sqltypes.NewInt64(20)), "0.10000000000000000000"},
		{call(dec("-1234.567"), sqltypes.NewInt64(2)), "-1,234.57"},
		{call(sqltypes.NewInt64(123456789), sqltypes.NewInt64(0)), "123,456,789"},
		{call(sqltypes.NewVarChar("12332.2"), sqltypes.NewInt64(0)), "12,332"},
		{call(dec("-1234567.891"), sqltypes.NewInt64(2), sqltypes.NewVarChar("de_DE")), "-1.234.567,89"},
		{call(dec("-1234567.891"), sqltypes.NewInt64(2), sqltypes.NewVarChar("de_CH")), "-1'234'567.89"},
		{call(dec("1"), sqltypes.NewInt64(-3)), "1"},
	} {
		if c.got != c.want {
			t.Errorf("FORMAT = %q, want %q", c.got, c.want)
		}
	}
	if v, _ := fnFormat(&testEnv{}, []sqltypes.Value{sqltypes.NULL, sqltypes.NewInt64(1)}); !v.IsNull() {
		t.Errorf("FORMAT(NULL, 1) = %v, want NULL", v)
	}
}

func TestQuoteSoundex(t *testing.T) {
	if got, want := quoteString("Don't\\\x00\x1a"), `'Don\'t\\\0\Z'`; got != want {
		t.Errorf("quoteString = %q, want %q", got, want)
	}
	if v, _ := fnQuote(&testEnv{}, []sqltypes.Value{sqltypes.NULL}); v.IsNull() || v.ToString() != "NULL" {
		t.Errorf("QUOTE(NULL) = %v, want 'NULL'", v)
	}
	for s, want := range map[string]string{
		"Hello": "H400", "Quadratically": "Q36324", "Tymczak": "T520", "Pfister": "P236",
		"Ashcraft": "A2613", "a": "A000", "Lloyd": "L300", "123": "", "": "", " 1 hh ": "H000",
	} {
		if got := soundex(s); got != want {
			t.Errorf("soundex(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestMakeExportSet(t *testing.T) {
	v, _ := fnMakeSet(&testEnv{}, []sqltypes.Value{sqltypes.NewInt64(1 | 4), sqltypes.NewVarChar("hello"), sqltypes.NewVarChar("nice"), sqltypes.NULL, sqltypes.NewVarChar("world")})
	if got := v.ToString(); got != "hello" {
		t.Errorf("MAKE_SET = %q, want hello", got)
	}
	if got := exportSet(6, "1", "0", ",", 10); got != "0,1,1,0,0,0,0,0,0,0" {
		t.Errorf("exportSet = %q", got)
	}
	v, _ = fnExportSet(&testEnv{}, []sqltypes.Value{sqltypes.NewInt64(5), sqltypes.NewVarChar("Y"), sqltypes.NewVarChar("N"), sqltypes.NewVarChar(""), sqltypes.NewInt64(100)})
	if got := v.ToString(); len(got) != 64 || got[:4] != "YNYN" {
		t.Errorf("EXPORT_SET(5,'Y','N','',100) = %q", got)
	}
}
