package coltype

import (
	"errors"
	"testing"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
)

func TestFromASTAndFormatType(t *testing.T) {
	cases := []struct {
		def      string
		typ      sqltypes.Type
		format   string
		nullable bool
		coll     collations.ID
	}{
		{"c int", sqltypes.Int32, "int", true, 63},
		{"c INTEGER NOT NULL", sqltypes.Int32, "int", false, 63},
		{"c int(11) unsigned", sqltypes.Uint32, "int unsigned", true, 63},
		{"c int zerofill", sqltypes.Uint32, "int(10) unsigned zerofill", true, 63},
		{"c tinyint(1)", sqltypes.Int8, "tinyint(1)", true, 63},
		{"c bool", sqltypes.Int8, "tinyint(1)", true, 63},
		{"c boolean default true", sqltypes.Int8, "tinyint(1)", true, 63},
		{"c smallint unsigned", sqltypes.Uint16, "smallint unsigned", true, 63},
		{"c mediumint", sqltypes.Int24, "mediumint", true, 63},
		{"c bigint", sqltypes.Int64, "bigint", true, 63},
		{"c bigint unsigned", sqltypes.Uint64, "bigint unsigned", true, 63},
		{"c bit", sqltypes.Bit, "bit(1)", true, 63},
		{"c bit(12)", sqltypes.Bit, "bit(12)", true, 63},
		{"c decimal", sqltypes.Decimal, "decimal(10,0)", true, 63},
		{"c decimal(10,2)", sqltypes.Decimal, "decimal(10,2)", true, 63},
		{"c numeric(5)", sqltypes.Decimal, "decimal(5,0)", true, 63},
		{"c float", sqltypes.Float32, "float", true, 63},
		{"c float(7,3)", sqltypes.Float32, "float(7,3)", true, 63},
		{"c float(30)", sqltypes.Float64, "double", true, 63},
		{"c double", sqltypes.Float64, "double", true, 63},
		{"c real", sqltypes.Float64, "double", true, 63},
		{"c char", sqltypes.Char, "char(1)", true, 45},
		{"c char(120) NOT NULL default ''", sqltypes.Char, "char(120)", false, 45},
		{"c varchar(255)", sqltypes.VarChar, "varchar(255)", true, 45},
		{"c varchar(10) collate utf8mb4_bin", sqltypes.VarChar, "varchar(10)", true, 46},
		{"c varchar(10) character set latin1", sqltypes.VarChar, "varchar(10)", true, 8},
		{"c varchar(10) charset utf8", sqltypes.VarChar, "varchar(10)", true, 33},
		{"c varchar(10) character set utf8mb4 collate utf8mb4_0900_ai_ci", sqltypes.VarChar, "varchar(10)", true, 255},
		{"c varchar(10) binary", sqltypes.VarChar, "varchar(10)", true, 46},
		{"c char(4) character set binary", sqltypes.Binary, "binary(4)", true, 63},
		{"c tinytext", sqltypes.Text, "tinytext", true, 45},
		{"c text", sqltypes.Text, "text", true, 45},
		{"c text(100)", sqltypes.Text, "text", true, 45},
		{"c text(50)", sqltypes.Text, "tinytext", true, 45},
		{"c mediumtext", sqltypes.Text, "mediumtext", true, 45},
		{"c longtext", sqltypes.Text, "longtext", true, 45},
		{"c binary(16)", sqltypes.Binary, "binary(16)", true, 63},
		{"c varbinary(16)", sqltypes.VarBinary, "varbinary(16)", true, 63},
		{"c tinyblob", sqltypes.Blob, "tinyblob", true, 63},
		{"c blob", sqltypes.Blob, "blob", true, 63},
		{"c mediumblob", sqltypes.Blob, "mediumblob", true, 63},
		{"c longblob", sqltypes.Blob, "longblob", true, 63},
		{"c date", sqltypes.Date, "date", true, 63},
		{"c datetime", sqltypes.Datetime, "datetime", true, 63},
		{"c datetime(6)", sqltypes.Datetime, "datetime(6)", true, 63},
		{"c timestamp", sqltypes.Timestamp, "timestamp", true, 63},
		{"c timestamp(3) not null default current_timestamp(3) on update current_timestamp(3)", sqltypes.Timestamp, "timestamp(3)", false, 63},
		{"c time(2)", sqltypes.Time, "time(2)", true, 63},
		{"c year", sqltypes.Year, "year", true, 63},
		{"c enum('a','b')", sqltypes.Enum, "enum('a','b')", true, 45},
		{"c enum('it''s','x ')", sqltypes.Enum, "enum('it''s','x')", true, 45},
		{"c set('x','y')", sqltypes.Set, "set('x','y')", true, 45},
		{"c json", sqltypes.TypeJSON, "json", true, 63},
		{"c int primary key", sqltypes.Int32, "int", false, 63},
		{"c int auto_increment", sqltypes.Int32, "int", false, 63},
	}
	for _, tc := range cases {
		col := mustCol(t, tc.def)
		if col.Type != tc.typ || FormatType(col) != tc.format || col.Nullable != tc.nullable || col.Collation != tc.coll {
			t.Errorf("%q: got type=%v format=%q nullable=%v coll=%d; want %v %q %v %d",
				tc.def, col.Type, FormatType(col), col.Nullable, col.Collation, tc.typ, tc.format, tc.nullable, tc.coll)
		}
	}
}

func TestFromASTDefaults(t *testing.T) {
	cases := []struct {
		def, text, expr, onUpdate string
		null                      bool
	}{
		{def: "c int default '0' not null", text: "0"},
		{def: "c int default -1", text: "-1"},
		{def: "c int default null", null: true},
		{def: "c decimal(5,2) default 1.5", text: "1.50"},
		{def: "c decimal(5,2) default 1.555", text: "1.56"},
		{def: "c varchar(5) default 'x''y'", text: "x'y"},
		{def: "c char(3) default 'ab '", text: "ab"},
		{def: "c datetime default '2024-1-2'", text: "2024-01-02 00:00:00"},
		{def: "c datetime(6) default current_timestamp(6)", expr: "CURRENT_TIMESTAMP(6)"},
		{def: "c timestamp default now() on update now()", expr: "CURRENT_TIMESTAMP", onUpdate: "CURRENT_TIMESTAMP"},
		{def: "c int default (1 + 2)", expr: "(1 + 2)"},
		{def: "c bit(8) default b'101'", text: "\x05"},
		{def: "c varbinary(4) default 0x41", text: "A"},
		{def: "c enum('a','b') default 'B'", text: "b"},
		{def: "c year default 24", text: "2024"},
		{def: "c text default null", null: true},
		{def: "c tinyint(1) default true", text: "1"},
		{def: "c int comment 'hello'"},
	}
	for _, tc := range cases {
		col := mustCol(t, tc.def)
		if col.DefaultText != tc.text || col.DefaultExpr != tc.expr || col.OnUpdateExpr != tc.onUpdate || col.DefaultNull != tc.null {
			t.Errorf("%q: got text=%q expr=%q onupdate=%q null=%v", tc.def, col.DefaultText, col.DefaultExpr, col.OnUpdateExpr, col.DefaultNull)
		}
		if (tc.text != "" || tc.null) != col.HasDefault {
			t.Errorf("%q: HasDefault=%v", tc.def, col.HasDefault)
		}
	}
	if c := mustCol(t, "c int comment 'hello'"); c.Comment != "hello" {
		t.Errorf("comment = %q", c.Comment)
	}
}

func TestFromASTErrors(t *testing.T) {
	cases := []struct {
		def   string
		code  sqlerror.ErrorCode
		state string
		msg   string
	}{
		{"c decimal(66,2)", 1426, "42000", "Too-big precision 66 specified for 'c'. Maximum is 65."},
		{"c decimal(40,31)", 1425, "42000", "Too big scale 31 specified for column 'c'. Maximum is 30."},
		{"c decimal(5,6)", 1427, "42000", "For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column 'c')."},
		{"c int not null default null", 1067, "42000", "Invalid default value for 'c'"},
		{"c int default 'abc'", 1067, "42000", "Invalid default value for 'c'"},
		{"c tinyint default 300", 1067, "42000", "Invalid default value for 'c'"},
		{"c datetime default '2024-02-30'", 1067, "42000", "Invalid default value for 'c'"},
		{"c datetime default '0000-00-00 00:00:00'", 1067, "42000", "Invalid default value for 'c'"},
		{"c enum('a') default 'z'", 1067, "42000", "Invalid default value for 'c'"},
		{"c varchar(2) default 'abc'", 1067, "42000", "Invalid default value for 'c'"},
		{"c int default current_timestamp", 1067, "42000", "Invalid default value for 'c'"},
		{"c datetime(3) default current_timestamp", 1067, "42000", "Invalid default value for 'c'"},
		{"c varchar(10) auto_increment", 1063, "42000", "Incorrect column specifier for column 'c'"},
		{"c text default 'x'", 1101, "42000", "BLOB, TEXT, GEOMETRY or JSON column 'c' can't have a default value"},
		{"c json default '{}'", 1101, "42000", "BLOB, TEXT, GEOMETRY or JSON column 'c' can't have a default value"},
		{"c varchar(16384)", 1074, "42000", "Column length too big for column 'c' (max = 16383); use BLOB or TEXT instead"},
		{"c char(256)", 1074, "42000", "Column length too big for column 'c' (max = 255); use BLOB or TEXT instead"},
		{"c datetime(7)", 1426, "42000", "Too-big precision 7 specified for 'c'. Maximum is 6."},
		{"c bit(65)", 1439, "42000", "Display width out of range for column 'c' (max = 64)"},
		{"c enum('a','A')", 1291, "HY000", "Column 'c' has duplicated value 'A' in ENUM"},
		{"c varchar(10) character set nope", 1115, "42000", "Unknown character set: 'nope'"},
		{"c varchar(10) collate nope_ci", 1273, "HY000", "Unknown collation: 'nope_ci'"},
		{"c varchar(10) character set latin1 collate utf8mb4_bin", 1253, "42000", "COLLATION 'utf8mb4_bin' is not valid for CHARACTER SET 'latin1'"},
		{"c int auto_increment default 1", 1067, "42000", "Invalid default value for 'c'"},
	}
	for _, tc := range cases {
		_, err := colDef(t, tc.def)
		var se *sqlerror.SQLError
		if !errors.As(err, &se) {
			t.Errorf("%q: err = %v, want SQLError %d", tc.def, err, tc.code)
			continue
		}
		if se.Number() != tc.code || se.SQLState() != tc.state || se.Message != tc.msg {
			t.Errorf("%q: got %d %s %q; want %d %s %q", tc.def, se.Number(), se.SQLState(), se.Message, tc.code, tc.state, tc.msg)
		}
	}
	// latin1 allows longer VARCHARs.
	if _, err := colDef(t, "c varchar(20000) character set latin1"); err != nil {
		t.Errorf("latin1 varchar(20000): %v", err)
	}
	// A non-strict mode accepts zero-date defaults (old dumps).
	ct := parseCreate(t, "create table t (c datetime default '0000-00-00 00:00:00')")
	if _, err := FromASTMode(ct.TableSpec.Columns[0], 45, 0); err != nil {
		t.Errorf("non-strict zero date default: %v", err)
	}
}
