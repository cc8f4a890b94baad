package metadata_test

import (
	"database/sql"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-db/strata/internal/testserver"
)

// A category is the set of go-sql-driver DatabaseTypeNames that satisfy an
// expectation; where MySQL's exact integer width is not what a client
// depends on, the category is the integer class.
var categories = map[string][]string{
	"int":       {"BIGINT", "INT", "MEDIUMINT", "SMALLINT", "TINYINT"},
	"uint":      {"UNSIGNED BIGINT", "UNSIGNED INT", "UNSIGNED MEDIUMINT", "UNSIGNED SMALLINT", "UNSIGNED TINYINT"},
	"anyint":    {"BIGINT", "INT", "UNSIGNED BIGINT", "UNSIGNED INT"},
	"num":       {"BIGINT", "INT", "UNSIGNED BIGINT", "DECIMAL", "DOUBLE"},
	"decimal":   {"DECIMAL"},
	"double":    {"DOUBLE"},
	"varchar":   {"VARCHAR", "CHAR"},
	"string":    {"VARCHAR", "CHAR", "TEXT", "LONGTEXT", "MEDIUMTEXT"},
	"text":      {"TEXT", "LONGTEXT", "MEDIUMTEXT"},
	"varbinary": {"VARBINARY", "BINARY"},
	"binary":    {"VARBINARY", "BINARY", "BLOB", "LONGBLOB"},
	"date":      {"DATE"},
	"datetime":  {"DATETIME"},
	"time":      {"TIME"},
	"json":      {"JSON"},
}

// expectation: an expression, its MySQL 8.0 type category and, for
// DECIMAL, DATETIME and TIME, its DECIMALS (-1: not checked).
type expectation struct {
	expr string
	cat  string
	dec  int
}

var cases = []expectation{
	// UNIX_TIMESTAMP: DECIMAL with the argument's fractional digits, else integer
	{"UNIX_TIMESTAMP(ts6)", "decimal", 6},
	{"UNIX_TIMESTAMP(dtm6)", "decimal", 6},
	{"UNIX_TIMESTAMP(ts)", "int", -1},
	{"UNIX_TIMESTAMP(dt)", "int", -1},
	{"UNIX_TIMESTAMP()", "int", -1},
	{"UNIX_TIMESTAMP('2024-01-01 00:00:00.5')", "decimal", 1},
	{"UNIX_TIMESTAMP('2024-01-01')", "int", -1},
	{"FROM_UNIXTIME(0)", "datetime", 0},
	{"FROM_UNIXTIME(1.5)", "datetime", 1},
	{"FROM_UNIXTIME(i)", "datetime", 0},
	// current time
	{"NOW()", "datetime", 0},
	{"NOW(3)", "datetime", 3},
	{"CURRENT_TIMESTAMP(6)", "datetime", 6},
	{"SYSDATE()", "datetime", 0},
	{"UTC_TIMESTAMP()", "datetime", 0},
	{"CURDATE()", "date", -1},
	{"UTC_DATE()", "date", -1},
	{"CURTIME()", "time", 0},
	{"CURTIME(2)", "time", 2},
	{"UTC_TIME()", "time", 0},
	// date and time arithmetic and conversion
	{"DATE(dtm)", "date", -1},
	{"TIME(dtm6)", "time", 6},
	{"TIMESTAMP(dt)", "datetime", 0},
	{"TIMESTAMP(dt, tm3)", "datetime", 3},
	{"ADDTIME(dtm, '01:00:00')", "datetime", 0},
	{"ADDTIME(tm, '01:00:00.5')", "time", 1},
	{"SUBTIME(dtm6, tm)", "datetime", 6},
	{"TIMEDIFF(dtm, dtm)", "time", 0},
	{"TIMEDIFF(tm3, tm)", "time", 3},
	{"DATEDIFF(dtm, dt)", "int", -1},
	{"TIMESTAMPDIFF(DAY, dt, dtm)", "int", -1},
	{"EXTRACT(YEAR FROM dt)", "int", -1},
	{"EXTRACT(MICROSECOND FROM dtm6)", "int", -1},
	{"DATE_ADD(dt, INTERVAL 1 DAY)", "date", -1},
	{"DATE_ADD(dt, INTERVAL 1 HOUR)", "datetime", 0},
	{"DATE_ADD(dtm6, INTERVAL 1 DAY)", "datetime", 6},
	{"DATE_SUB(dtm, INTERVAL 1 SECOND)", "datetime", 0},
	{"dt + INTERVAL 1 DAY", "date", -1},
	{"ADDDATE(dt, 1)", "date", -1},
	{"DATE_FORMAT(dt, '%Y')", "varchar", -1},
	{"STR_TO_DATE('2024-01-01', '%Y-%m-%d')", "date", -1},
	{"STR_TO_DATE('2024-01-01 10:00:00', '%Y-%m-%d %H:%i:%s')", "datetime", 0},
	{"STR_TO_DATE('10:00:00.5', '%H:%i:%s.%f')", "time", 6},
	{"MAKEDATE(2024, 1)", "date", -1},
	{"MAKETIME(1, 2, 3)", "time", 0},
	{"MAKETIME(1, 2, 3.5)", "time", 1},
	{"SEC_TO_TIME(100)", "time", 0},
	{"SEC_TO_TIME(100.5)", "time", 1},
	{"TIME_TO_SEC(tm)", "int", -1},
	{"TO_DAYS(dt)", "int", -1},
	{"TO_SECONDS(dtm)", "int", -1},
	{"FROM_DAYS(700000)", "date", -1},
	{"LAST_DAY(dt)", "date", -1},
	{"DAYNAME(dt)", "varchar", -1},
	{"MONTHNAME(dt)", "varchar", -1},
	{"DAYOFWEEK(dt)", "int", -1},
	{"DAYOFMONTH(dt)", "int", -1},
	{"DAYOFYEAR(dt)", "int", -1},
	{"WEEK(dt)", "int", -1},
	{"WEEKDAY(dt)", "int", -1},
	{"WEEKOFYEAR(dt)", "int", -1},
	{"YEARWEEK(dt)", "int", -1},
	{"YEAR(dt)", "int", -1},
	{"MONTH(dt)", "int", -1},
	{"QUARTER(dt)", "int", -1},
	{"HOUR(tm)", "int", -1},
	{"MINUTE(tm)", "int", -1},
	{"SECOND(tm)", "int", -1},
	{"MICROSECOND(tm3)", "int", -1},
	{"PERIOD_ADD(202401, 2)", "int", -1},
	{"PERIOD_DIFF(202401, 202301)", "int", -1},
	{"CONVERT_TZ(dtm, '+00:00', '+01:00')", "datetime", 0},
	{"CONVERT_TZ(dtm6, '+00:00', '+01:00')", "datetime", 6},
	// numbers
	{"ABS(i)", "int", -1},
	{"ABS(u)", "uint", -1},
	{"ABS(d)", "decimal", 3},
	{"ABS(dbl)", "double", -1},
	{"CEIL(d)", "int", -1},
	{"CEIL(dbl)", "double", -1},
	{"FLOOR(d)", "int", -1},
	{"ROUND(d)", "decimal", 0},
	{"ROUND(d, 1)", "decimal", 1},
	{"ROUND(dbl, 1)", "double", -1},
	{"ROUND(i, -1)", "int", -1},
	{"ROUND('1.55', 1)", "double", -1},
	{"TRUNCATE(d, 1)", "decimal", 1},
	{"TRUNCATE(dbl, 1)", "double", -1},
	{"MOD(i, 3)", "int", -1},
	{"MOD(d, 2)", "decimal", 3},
	{"i % 3", "int", -1},
	{"i / 2", "decimal", 4},
	{"i DIV 2", "int", -1},
	{"d / 3", "decimal", 7},
	{"dbl / 2", "double", -1},
	{"i * d", "decimal", 3},
	{"d + 1.5", "decimal", 3},
	{"i + u", "uint", -1},
	{"-i", "int", -1},
	{"SIGN(d)", "int", -1},
	{"SQRT(i)", "double", -1},
	{"POW(i, 2)", "double", -1},
	{"EXP(1)", "double", -1},
	{"LN(10)", "double", -1},
	{"LOG(10)", "double", -1},
	{"LOG2(8)", "double", -1},
	{"LOG10(100)", "double", -1},
	{"SIN(1)", "double", -1},
	{"DEGREES(1)", "double", -1},
	{"RAND(1)", "double", -1},
	{"CRC32('a')", "uint", -1},
	{"CONV('a', 16, 10)", "varchar", -1},
	{"BIN(5)", "varchar", -1},
	{"OCT(8)", "varchar", -1},
	{"HEX(i)", "varchar", -1},
	{"HEX(vc)", "varchar", -1},
	{"UNHEX('41')", "varbinary", -1},
	{"BIT_COUNT(i)", "int", -1},
	{"i & 3", "uint", -1},
	{"i | 3", "uint", -1},
	{"~i", "uint", -1},
	{"i << 2", "uint", -1},
	{"'1' + 1", "double", -1},
	{"vc + 0", "double", -1},
	{"f + 0", "double", -1},
	// strings
	{"LENGTH(vc)", "int", -1},
	{"CHAR_LENGTH(vc)", "int", -1},
	{"BIT_LENGTH(vc)", "int", -1},
	{"ASCII(vc)", "int", -1},
	{"ORD(vc)", "int", -1},
	{"CONCAT(vc, i)", "varchar", -1},
	{"CONCAT(vc, vb)", "varbinary", -1},
	{"CONCAT_WS(',', vc, ch)", "varchar", -1},
	{"UPPER(vc)", "varchar", -1},
	{"LOWER(vb)", "varbinary", -1},
	{"LEFT(vc, 1)", "varchar", -1},
	{"RIGHT(vc, 1)", "varchar", -1},
	{"LPAD(vc, 5, '-')", "varchar", -1},
	{"RPAD(vc, 5, '-')", "varchar", -1},
	{"SUBSTRING(vc, 2)", "varchar", -1},
	{"SUBSTRING_INDEX(vc, 'b', 1)", "varchar", -1},
	{"MID(vc, 1, 1)", "varchar", -1},
	{"TRIM(ch)", "varchar", -1},
	{"LTRIM(vc)", "varchar", -1},
	{"REPLACE(vc, 'a', 'b')", "varchar", -1},
	{"REVERSE(vc)", "varchar", -1},
	{"REPEAT(vc, 2)", "varchar", -1},
	{"SPACE(3)", "varchar", -1},
	{"INSERT(vc, 1, 1, 'z')", "varchar", -1},
	{"INSTR(vc, 'b')", "int", -1},
	{"LOCATE('b', vc)", "int", -1},
	{"FIELD('b', 'a', 'b')", "int", -1},
	{"FIND_IN_SET('b', 'a,b')", "int", -1},
	{"ELT(1, 'a', 'b')", "varchar", -1},
	{"MAKE_SET(3, 'a', 'b')", "varchar", -1},
	{"EXPORT_SET(5, 'y', 'n', ',', 4)", "varchar", -1},
	{"FORMAT(d, 2)", "varchar", -1},
	{"QUOTE(vc)", "varchar", -1},
	{"SOUNDEX(vc)", "varchar", -1},
	{"STRCMP(vc, 'b')", "int", -1},
	{"TO_BASE64(vc)", "varchar", -1},
	{"FROM_BASE64('YWJj')", "binary", -1},
	{"MD5(vc)", "varchar", -1},
	{"SHA1(vc)", "varchar", -1},
	{"SHA2(vc, 256)", "varchar", -1},
	{"CHARSET(vc)", "varchar", -1},
	{"COLLATION(vc)", "varchar", -1},
	{"CHAR(65)", "varbinary", -1},
	{"WEIGHT_STRING(vc)", "binary", -1},
	{"REGEXP_REPLACE(vc, 'a', 'b')", "string", -1},
	{"REGEXP_SUBSTR(vc, 'b')", "string", -1},
	{"REGEXP_INSTR(vc, 'b')", "int", -1},
	{"REGEXP_LIKE(vc, 'a')", "int", -1},
	{"vc LIKE 'a%'", "int", -1},
	{"INET_ATON('1.2.3.4')", "uint", -1},
	{"INET_NTOA(16909060)", "varchar", -1},
	{"INET6_ATON('::1')", "varbinary", -1},
	{"UUID()", "varchar", -1},
	{"UUID_SHORT()", "uint", -1},
	{"RANDOM_BYTES(4)", "varbinary", -1},
	// session and server
	{"DATABASE()", "varchar", -1},
	{"USER()", "varchar", -1},
	{"CURRENT_USER()", "varchar", -1},
	{"VERSION()", "varchar", -1},
	{"CONNECTION_ID()", "uint", -1},
	{"LAST_INSERT_ID()", "uint", -1},
	{"ROW_COUNT()", "int", -1},
	{"FOUND_ROWS()", "anyint", -1},
	{"@@version", "varchar", -1},
	{"@@autocommit", "int", -1},
	{"@@max_allowed_packet", "anyint", -1},
	{"@@time_zone", "varchar", -1},
	{"SLEEP(0)", "int", -1},
	{"BENCHMARK(1, 1)", "int", -1},
	{"GET_LOCK('metadata_test', 0)", "int", -1},
	{"RELEASE_LOCK('metadata_test')", "int", -1},
	{"IS_FREE_LOCK('metadata_test')", "int", -1},
	// control flow
	{"COALESCE(i, d)", "decimal", 3},
	{"COALESCE(vc, i)", "varchar", -1},
	{"IFNULL(i, 'x')", "varchar", -1},
	{"IFNULL(dt, dtm)", "datetime", 0},
	{"IF(i > 1, i, d)", "decimal", 3},
	{"IF(i > 1, dt, dtm6)", "datetime", 6},
	{"NULLIF(i, 2)", "int", -1},
	{"CASE WHEN i > 1 THEN d ELSE dbl END", "double", -1},
	{"GREATEST(i, d)", "decimal", 3},
	{"GREATEST(dt, dtm)", "datetime", 0},
	{"LEAST(i, bi)", "int", -1},
	{"GREATEST(vc, 'z')", "varchar", -1},
	{"ISNULL(i)", "int", -1},
	{"i IN (1, 2)", "int", -1},
	{"i BETWEEN 1 AND 3", "int", -1},
	// casts
	{"CAST(i AS CHAR)", "varchar", -1},
	{"CAST(i AS DECIMAL(10,2))", "decimal", 2},
	{"CAST('1.5' AS DECIMAL)", "decimal", 0},
	{"CAST(d AS SIGNED)", "int", -1},
	{"CAST(i AS UNSIGNED)", "uint", -1},
	{"CAST(vc AS BINARY)", "varbinary", -1},
	{"CAST(dtm6 AS DATE)", "date", -1},
	{"CAST(dt AS DATETIME)", "datetime", 0},
	{"CAST(dt AS DATETIME(3))", "datetime", 3},
	{"CAST(tm AS TIME(1))", "time", 1},
	{"CAST(dtm6 AS TIME)", "time", 0},
	{"CAST(d AS DOUBLE)", "double", -1},
	{"CAST(js AS CHAR)", "string", -1},
	{"CONVERT(vc USING latin1)", "varchar", -1},
	{"BINARY vc", "varbinary", -1},
	// JSON
	{"js->'$.a'", "json", -1},
	{"js->>'$.a'", "text", -1},
	{"JSON_EXTRACT(js, '$.a')", "json", -1},
	{"JSON_UNQUOTE(js)", "text", -1},
	{"JSON_KEYS(js)", "json", -1},
	{"JSON_OBJECT('a', i)", "json", -1},
	{"JSON_ARRAY(1, i)", "json", -1},
	{"JSON_LENGTH(js)", "anyint", -1},
	{"JSON_DEPTH(js)", "anyint", -1},
	{"JSON_VALID(js)", "anyint", -1},
	{"JSON_CONTAINS(js, '1')", "anyint", -1},
	{"JSON_OVERLAPS(js, '1')", "anyint", -1},
	{"JSON_TYPE(js)", "string", -1},
	{"JSON_QUOTE(vc)", "string", -1},
	{"JSON_PRETTY(js)", "text", -1},
	{"JSON_SET(js, '$.a', i)", "json", -1},
	{"JSON_ARRAY_APPEND(js, '$', 1)", "json", -1},
	{"JSON_MERGE_PATCH(js, '{}')", "json", -1},
	{"JSON_MERGE_PRESERVE(js, js)", "json", -1},
	// literals
	{"1", "int", -1},
	{"1.50", "decimal", 2},
	{"1e1", "double", -1},
	{"18446744073709551615", "uint", -1},
	{"'a'", "varchar", -1},
	{"x'41'", "varbinary", -1},
	{"DATE '2024-01-01'", "date", -1},
	{"TIME '10:00:00'", "time", 0},
	{"TIMESTAMP '2024-01-01 10:00:00.12'", "datetime", 2},
	// subqueries
	{"(SELECT 1)", "int", -1},
	{"(SELECT d FROM m WHERE id = 1)", "decimal", 3},
	{"(SELECT MAX(dtm6) FROM m)", "datetime", 6},
	{"EXISTS (SELECT 1)", "int", -1},
	{"i IN (SELECT 1)", "int", -1},
	// window functions
	{"ROW_NUMBER() OVER (ORDER BY id)", "int", -1},
	{"RANK() OVER (ORDER BY i)", "int", -1},
	{"NTILE(2) OVER (ORDER BY id)", "int", -1},
	{"PERCENT_RANK() OVER (ORDER BY id)", "double", -1},
	{"CUME_DIST() OVER (ORDER BY id)", "double", -1},
	{"SUM(d) OVER (ORDER BY id)", "decimal", 3},
	{"AVG(i) OVER ()", "decimal", 4},
	{"SUM(i) OVER (ORDER BY id ROWS 1 PRECEDING)", "decimal", 0},
	{"COUNT(*) OVER ()", "int", -1},
	{"MAX(dtm6) OVER (ORDER BY id)", "datetime", 6},
	{"LAG(vc) OVER (ORDER BY id)", "varchar", -1},
	{"FIRST_VALUE(d) OVER (ORDER BY id DESC)", "decimal", 3},
	{"STD(dbl) OVER ()", "double", -1},
}

// aggregates are checked over the whole table (one row out).
var aggregates = []expectation{
	{"COUNT(*)", "int", -1},
	{"COUNT(DISTINCT vc)", "int", -1},
	{"SUM(i)", "decimal", 0},
	{"SUM(d)", "decimal", 3},
	{"SUM(dbl)", "double", -1},
	{"AVG(i)", "decimal", 4},
	{"AVG(d)", "decimal", 7},
	{"MIN(d)", "decimal", 3},
	{"MAX(dtm6)", "datetime", 6},
	{"MAX(vc)", "varchar", -1},
	{"GROUP_CONCAT(vc)", "text", -1},
	{"BIT_OR(i)", "uint", -1},
}

func TestFunctionMetadata(t *testing.T) {
	srv := testserver.Start(t, testserver.Options{})
	admin := srv.DB(t, "")
	for _, q := range []string{
		"CREATE DATABASE metadata",
		"CREATE TABLE metadata.m (id INT PRIMARY KEY, i INT, bi BIGINT, u INT UNSIGNED, d DECIMAL(10,3), f FLOAT, dbl DOUBLE, vc VARCHAR(20), ch CHAR(10), vb VARBINARY(20), dt DATE, dtm DATETIME, dtm6 DATETIME(6), ts TIMESTAMP NULL, ts6 TIMESTAMP(6) NULL, tm TIME, tm3 TIME(3), js JSON)",
		"INSERT INTO metadata.m VALUES (1, 2, 3, 4, 12.345, 1.5, 2.25, 'abc', 'ch', 'vb', '2024-02-29', '2024-02-29 23:59:59', '2024-02-29 23:59:59.123456', '2024-02-29 23:59:59', '2024-02-29 23:59:59.123456', '12:34:56', '12:34:56.789', '{\"a\": 1}')",
		"INSERT INTO metadata.m (id) VALUES (2)",
	} {
		if _, err := admin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db := srv.DB(t, "metadata")
	db.SetMaxOpenConns(1) // one session: the time zone below holds for every query
	if _, err := db.Exec("SET time_zone = '+00:00'"); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		check(t, db, c, "SELECT "+c.expr+" FROM m ORDER BY id")
	}
	for _, c := range aggregates {
		check(t, db, c, "SELECT "+c.expr+" FROM m")
	}
}

// check runs q in the text protocol (COM_QUERY) and the binary protocol
// (COM_STMT_PREPARE + COM_STMT_EXECUTE) and compares metadata and values.
func check(t *testing.T, db *sql.DB, c expectation, q string) {
	t.Helper()
	text, textTypes, err := run(db, q, false)
	if err != nil {
		t.Errorf("%s: text protocol: %v", c.expr, err)
		return
	}
	bin, binTypes, err := run(db, q, true)
	if err != nil {
		t.Errorf("%s: binary protocol: %v", c.expr, err)
		return
	}
	for mode, ct := range map[string]*sql.ColumnType{"text": textTypes, "binary": binTypes} {
		name := ct.DatabaseTypeName()
		if !contains(categories[c.cat], name) {
			t.Errorf("%s (%s): type %s, want %s (%s)", c.expr, mode, name, c.cat, strings.Join(categories[c.cat], "/"))
			continue
		}
		if c.dec >= 0 {
			if _, scale, ok := ct.DecimalSize(); !ok || scale != int64(c.dec) {
				t.Errorf("%s (%s): DECIMALS %d, want %d", c.expr, mode, scale, c.dec)
			}
		}
	}
	for r := range text {
		if volatile(c.expr) {
			// Each run gives another value: check each protocol's own.
			if b, ok := bin[r].([]byte); ok {
				if err := fitsType(binTypes, string(b)); err != nil {
					t.Errorf("%s row %d (binary): value %q does not fit its metadata: %v", c.expr, r+1, b, err)
				}
			}
		} else if !sameValue(text[r], bin[r]) {
			t.Errorf("%s row %d: text protocol sent %q, binary protocol decoded %#v (%s)", c.expr, r+1, text[r], bin[r], binTypes.DatabaseTypeName())
			continue
		}
		if s, ok := text[r].([]byte); ok {
			if err := fitsType(binTypes, string(s)); err != nil {
				t.Errorf("%s row %d: value %q does not fit its metadata: %v", c.expr, r+1, s, err)
			}
		}
	}
}

// run returns the first column of every row of q and its metadata.
func run(db *sql.DB, q string, prepared bool) ([]any, *sql.ColumnType, error) {
	var rows *sql.Rows
	var err error
	if prepared {
		var st *sql.Stmt
		if st, err = db.Prepare(q); err != nil {
			return nil, nil, err
		}
		defer st.Close()
		rows, err = st.Query()
	} else {
		rows, err = db.Query(q)
	}
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		return nil, nil, err
	}
	var out []any
	for rows.Next() {
		if !prepared {
			// The text as sent (the driver may have parsed it by the
			// declared type: RawBytes formats it back).
			var raw sql.RawBytes
			if err := rows.Scan(&raw); err != nil {
				return nil, nil, err
			}
			if raw == nil {
				out = append(out, nil)
			} else {
				out = append(out, append([]byte(nil), raw...))
			}
			continue
		}
		var v any
		if err := rows.Scan(&v); err != nil {
			return nil, nil, err
		}
		if b, ok := v.([]byte); ok {
			v = append([]byte(nil), b...)
		}
		out = append(out, v)
	}
	return out, cts[0], rows.Err()
}

// sameValue reports whether a text-protocol value (bytes) and the
// binary-protocol value decoded by the declared type are the same.
func sameValue(text, bin any) bool {
	if text == nil || bin == nil {
		return text == nil && bin == nil
	}
	s := string(text.([]byte))
	switch b := bin.(type) {
	case []byte:
		return s == string(b)
	case int64, int32, int16, int8, uint64, uint32, uint16, uint8:
		return s == fmt.Sprint(b)
	case float64:
		f, err := strconv.ParseFloat(s, 64)
		return err == nil && (f == b || math.Abs(f-b) <= 1e-12*math.Abs(b))
	case float32:
		f, err := strconv.ParseFloat(s, 32)
		return err == nil && float32(f) == b
	}
	return s == fmt.Sprint(bin)
}

var (
	reInt     = regexp.MustCompile(`^-?[0-9]+$`)
	reDecimal = regexp.MustCompile(`^-?[0-9]+(\.([0-9]+))?$`)
	reDate    = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
	reDatetim = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}(\.([0-9]+))?$`)
	reTime    = regexp.MustCompile(`^-?[0-9]{2,3}:[0-9]{2}:[0-9]{2}(\.([0-9]+))?$`)
)

// fitsType checks a text value against its column's type: integers for
// integer types, exactly DECIMALS fractional digits for DECIMAL, DATETIME
// and TIME (MySQL pads values to the declared scale).
func fitsType(ct *sql.ColumnType, s string) error {
	name := ct.DatabaseTypeName()
	_, scale, _ := ct.DecimalSize()
	frac := func(re *regexp.Regexp) error {
		m := re.FindStringSubmatch(s)
		if m == nil {
			return fmt.Errorf("not a %s", name)
		}
		if got := len(m[len(m)-1]); int64(got) != scale {
			return fmt.Errorf("%d fractional digits, DECIMALS %d", got, scale)
		}
		return nil
	}
	switch {
	case strings.HasSuffix(name, "INT"):
		if !reInt.MatchString(s) {
			return fmt.Errorf("not an integer")
		}
	case name == "DECIMAL":
		return frac(reDecimal)
	case name == "DOUBLE" || name == "FLOAT":
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return err
		}
	case name == "DATE":
		if !reDate.MatchString(s) {
			return fmt.Errorf("not a date")
		}
	case name == "DATETIME" || name == "TIMESTAMP":
		return frac(reDatetim)
	case name == "TIME":
		return frac(reTime)
	}
	return nil
}

// volatile reports whether expr gives a new value at every evaluation.
func volatile(expr string) bool {
	for _, f := range []string{"NOW(", "CURRENT_TIMESTAMP(", "SYSDATE(", "CURTIME(", "UTC_", "UNIX_TIMESTAMP()", "UUID", "RANDOM_BYTES(", "RAND()"} {
		if strings.Contains(expr, f) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
