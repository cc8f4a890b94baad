package parse

import (
	"errors"
	"reflect"
	"testing"
)

func strp(s string) *string { return &s }

func TestParseLoadData(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want LoadData
	}{
		{"LOAD DATA INFILE '/tmp/a.txt' INTO TABLE t", LoadData{File: "/tmp/a.txt", Table: "t"}},
		{"load data low_priority local infile \"a\\tb\" replace into table `d`.`t t` partition (p0, p1) character set latin1",
			LoadData{Local: true, File: "a\tb", Replace: true, Schema: "d", Table: "t t", Partitions: []string{"p0", "p1"}, Charset: "latin1"}},
		{"LOAD DATA CONCURRENT INFILE 'f' IGNORE INTO TABLE t CHARSET 'utf8mb4' COLUMNS ESCAPED BY '' OPTIONALLY ENCLOSED BY '\"' TERMINATED BY ',' LINES TERMINATED BY '\\r\\n' STARTING BY 'x:'",
			LoadData{File: "f", Ignore: true, Table: "t", Charset: "utf8mb4", FieldsTerm: strp(","), Enclosed: strp("\""), OptEnclosed: true, Escaped: strp(""), LinesStart: strp("x:"), LinesTerm: strp("\r\n")}},
		{"LOAD DATA INFILE 'f' INTO TABLE t FIELDS TERMINATED BY '''' IGNORE 2 ROWS (a, @v, t.b, @`w w`) SET c = @v + 1, d = CONCAT(@v, ','), e = DEFAULT;",
			LoadData{File: "f", Table: "t", FieldsTerm: strp("'"), IgnoreLines: 2,
				Targets: []LoadTarget{{Name: "a"}, {Name: "v", Var: true}, {Name: "b"}, {Name: "w w", Var: true}},
				Set:     []LoadSet{{Column: "c", Expr: "@v + 1"}, {Column: "d", Expr: "CONCAT(@v, ',')"}, {Column: "e", Expr: "DEFAULT"}}}},
		{"/* c */ LOAD DATA INFILE 'a' 'b' INTO TABLE t IGNORE 1 LINES ()", LoadData{File: "ab", Table: "t", IgnoreLines: 1, Targets: []LoadTarget{}}},
	} {
		got, err := ParseLoadData(tc.sql, false)
		if err != nil {
			t.Errorf("ParseLoadData(%q): %v", tc.sql, err)
			continue
		}
		if !reflect.DeepEqual(*got, tc.want) {
			t.Errorf("ParseLoadData(%q) =\n %+v\nwant\n %+v", tc.sql, *got, tc.want)
		}
	}
}

func TestParseLoadDataErrors(t *testing.T) {
	for _, sql := range []string{
		"LOAD DATA INFILE INTO TABLE t",
		"LOAD DATA INFILE 'f' INTO t",
		"LOAD DATA INFILE 'f' INTO TABLE t FIELDS",
		"LOAD DATA INFILE 'f' INTO TABLE t LINES ENCLOSED BY 'x'",
		"LOAD DATA INFILE 'f' INTO TABLE t IGNORE x LINES",
		"LOAD DATA INFILE 'f' INTO TABLE t (a, b",
		"LOAD DATA INFILE 'f' INTO TABLE t SET a",
		"LOAD DATA INFILE 'f' INTO TABLE t junk",
		"LOAD DATA INFILE 'unterminated INTO TABLE t",
		"LOAD DATA INFILE 'f' INTO TABLE t FIELDS TERMINATED BY ',' FIELDS TERMINATED BY ','",
	} {
		_, err := ParseLoadData(sql, false)
		var se *LoadDataSyntaxError
		if !errors.As(err, &se) {
			t.Errorf("ParseLoadData(%q) = %v, want a syntax error", sql, err)
		}
	}
	if _, err := ParseLoadData("LOAD XML INFILE 'f' INTO TABLE t", false); err != ErrLoadXML {
		t.Errorf("LOAD XML: %v", err)
	}
}

func TestIsLoadData(t *testing.T) {
	for sql, want := range map[string]bool{
		"LOAD DATA INFILE 'f' INTO TABLE t":    true,
		"  load xml infile 'f' into table t":   true,
		"/*!40000 LOAD DATA */ INFILE 'f' ...": true,
		"LOAD INDEX INTO CACHE t":              false,
		"SELECT 'LOAD DATA'":                   false,
		"loader":                               false,
	} {
		if got := IsLoadData(sql); got != want {
			t.Errorf("IsLoadData(%q) = %v", sql, got)
		}
	}
}

func TestParseLoadDataNoBackslashEscapes(t *testing.T) {
	ld, err := ParseLoadData(`LOAD DATA INFILE 'c:\dir\f.txt' INTO TABLE t FIELDS ESCAPED BY '\'`, true)
	if err != nil {
		t.Fatal(err)
	}
	if ld.File != `c:\dir\f.txt` || *ld.Escaped != `\` {
		t.Errorf("got %q, %q", ld.File, *ld.Escaped)
	}
}

// FuzzParseLoadData: no statement text makes the parser panic, and what it
// accepts it accepts again from its own reading of the file name.
func FuzzParseLoadData(f *testing.F) {
	for _, s := range []string{
		"LOAD DATA INFILE 'f' INTO TABLE t",
		"LOAD DATA LOCAL INFILE 'a\\'b' REPLACE INTO TABLE d.t FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' LINES STARTING BY '>' TERMINATED BY '\\r\\n' IGNORE 1 LINES (a, @b) SET c = @b + 1",
		"LOAD DATA INFILE 'f' INTO TABLE t PARTITION (p",
		"LOAD XML INFILE 'f' INTO TABLE t",
		"/*!40101 LOAD DATA */ INFILE",
	} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, sql string, nbe bool) {
		ld, err := ParseLoadData(sql, nbe)
		if err == nil && ld == nil {
			t.Fatal("nil statement without an error")
		}
		_ = IsLoadData(sql)
	})
}
