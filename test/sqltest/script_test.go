package sqltest

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

const sample = `# mode: text
# a comment
statement ok
CREATE TABLE t (a INT PRIMARY KEY,
  b VARCHAR(10))

statement count 2
INSERT INTO t VALUES (1,'x'),(2,NULL)

statement error 1062
INSERT INTO t VALUES (1,'y')

statement error
BOGUS

query
SELECT a, b FROM t ORDER BY a
----
1	x
2	NULL

onlyif strata
skipif mariadb
query rowsort colnames noprepare
SELECT b FROM t
----
b
(empty)
x

query error 1146
SELECT * FROM nope

query
SELECT 1 FROM t WHERE 0

connection c2
sleep 15
statement ok noprepare
BEGIN
`

func TestParse(t *testing.T) {
	s, err := Parse("sample.test", sample)
	if err != nil {
		t.Fatal(err)
	}
	if !s.TextOnly {
		t.Error("TextOnly not set by '# mode: text'")
	}
	want := []Record{
		{Kind: KindStatement, Line: 3, SQL: "CREATE TABLE t (a INT PRIMARY KEY,\n  b VARCHAR(10))", Count: -1},
		{Kind: KindStatement, Line: 7, SQL: "INSERT INTO t VALUES (1,'x'),(2,NULL)", Count: 2},
		{Kind: KindStatement, Line: 10, SQL: "INSERT INTO t VALUES (1,'y')", Count: -1, ExpectError: true, ErrorCode: 1062},
		{Kind: KindStatement, Line: 13, SQL: "BOGUS", Count: -1, ExpectError: true},
		{Kind: KindQuery, Line: 16, SQL: "SELECT a, b FROM t ORDER BY a", Count: -1, Expected: []string{"1\tx", "2\tNULL"}},
		{Kind: KindQuery, Line: 24, SQL: "SELECT b FROM t", Count: -1, RowSort: true, ColNames: true, NoPrepare: true,
			Expected:   []string{"b", "", "x"},
			Conditions: []Condition{{OnlyIf: true, Target: "strata"}, {OnlyIf: false, Target: "mariadb"}}},
		{Kind: KindQuery, Line: 31, SQL: "SELECT * FROM nope", Count: -1, ExpectError: true, ErrorCode: 1146},
		{Kind: KindQuery, Line: 34, SQL: "SELECT 1 FROM t WHERE 0", Count: -1},
		{Kind: KindConnection, Line: 37, Conn: "c2", Count: -1},
		{Kind: KindSleep, Line: 38, Sleep: 15 * time.Millisecond, Count: -1},
		{Kind: KindStatement, Line: 39, SQL: "BEGIN", NoPrepare: true, Count: -1},
	}
	if len(s.Records) != len(want) {
		t.Fatalf("got %d records, want %d: %+v", len(s.Records), len(want), s.Records)
	}
	for i := range want {
		got := s.Records[i]
		got.resultFrom, got.resultTo, got.hasSeparator = 0, 0, false
		if !reflect.DeepEqual(got, want[i]) {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, got, want[i])
		}
	}
	r := s.Records[5]
	if !r.Applies("strata") || r.Applies("mariadb") || r.Applies("mysql") {
		t.Error("onlyif strata/skipif mariadb applied wrongly")
	}
	if r := s.Records[6]; !r.Applies("mariadb") {
		t.Error("record without conditions must apply everywhere")
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, msg string }{
		{"statement\nSELECT 1\n", "x.test:1: statement needs ok"},
		{"statement ok\n\n", "x.test:1: statement without SQL"},
		{"statement ok\nSELECT 1\n----\n1\n", "x.test:3: statement has a result block"},
		{"query error 1064\nSELEC\n----\n", "x.test:3: query error has a result block"},
		{"query sorted\nSELECT 1\n", `x.test:1: unknown query option "sorted"`},
		{"frobnicate\n", `x.test:1: unknown command "frobnicate"`},
		{"statement count x\nDELETE FROM t\n", `x.test:1: bad count "x"`},
		{"sleep soon\n", `x.test:1: bad sleep duration "soon"`},
		{"onlyif strata\n", "onlyif/skipif at end of file"},
		{"\n\nconnection\n", "x.test:3: connection needs one name"},
	} {
		_, err := Parse("x.test", tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Parse(%q) = %v, want error containing %q", tc.src, err, tc.msg)
		}
	}
}

func TestRewrite(t *testing.T) {
	src := "statement count 9\nDELETE FROM t\n\n" +
		"query\nSELECT 1\n----\nold\nold2\n\n" +
		"query\nSELECT 2\n\n" +
		"query error 1146\nSELECT x\n\n" +
		"query\nSELECT ''\n----\n\n# tail\n"
	s, err := Parse("x.test", src)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Rewrite(map[int][]string{0: {"3"}, 1: {"1"}, 2: {"2", "NULL\tx"}, 4: {""}})
	want := "statement count 3\nDELETE FROM t\n\n" +
		"query\nSELECT 1\n----\n1\n\n" +
		"query\nSELECT 2\n----\n2\nNULL\tx\n\n" +
		"query error 1146\nSELECT x\n\n" +
		"query\nSELECT ''\n----\n(empty)\n\n# tail\n"
	if got != want {
		t.Errorf("Rewrite:\n%s\nwant:\n%s", got, want)
	}
	// The rewritten script parses back to the new expectations.
	s2, err := Parse("x.test", got)
	if err != nil {
		t.Fatal(err)
	}
	if e := s2.Records[2].Expected; !reflect.DeepEqual(e, []string{"2", "NULL\tx"}) {
		t.Errorf("reparsed expected = %q", e)
	}
	if s2.Records[0].Count != 3 {
		t.Errorf("reparsed count = %d", s2.Records[0].Count)
	}
	if s.Rewrite(nil) != src {
		t.Error("Rewrite(nil) changed the source")
	}
}

func TestFormatValue(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{nil, "NULL"},
		{[]byte("abc"), "abc"},
		{[]byte(""), ""},
		{"a\tb\nc\\d\x00", `a\tb\nc\\d\0`},
		{[]byte("h\xc3\xa9\xff"), `hé\xff`},
		{int64(-42), "-42"},
		{uint64(18446744073709551615), "18446744073709551615"},
		{float32(1.1), "1.1"},
		{float64(0.1), "0.1"},
		{float64(100000000000000), "100000000000000"},
		{float64(1e15), "1e15"},
		{float64(-2.5e20), "-2.5e20"},
		{float64(1.5e-15), "0.0000000000000015"},
		{float64(1.5e-16), "1.5e-16"},
		{float64(1.2345678901234568e17), "1.2345678901234568e17"},
		{float32(3.4e38), "3.4e38"},
		{true, "1"},
	} {
		if got := FormatValue(tc.v); got != tc.want {
			t.Errorf("FormatValue(%#v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
