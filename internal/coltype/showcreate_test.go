package coltype

import (
	"strings"
	"testing"

	"vitess.io/vitess/go/mysql/collations"
	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/catalog"
)

// buildTable builds a catalog.Table from CREATE TABLE text the way the sql
// layer will: columns through FromAST, indexes by name.
func buildTable(t *testing.T, sql string) *catalog.Table {
	t.Helper()
	ct := parseCreate(t, sql)
	tbl := &catalog.Table{DB: "db", Name: ct.Table.Name.String(), Collation: DefaultCollation, AutoIncCol: -1}
	for _, opt := range ct.TableSpec.Options {
		switch strings.ToLower(opt.Name) {
		case "collate":
			tbl.Collation = collEnv.LookupByName(opt.String)
		case "comment":
			tbl.Comment = opt.Value.Val
		}
	}
	for _, cd := range ct.TableSpec.Columns {
		col, err := FromAST(cd, tbl.Collation)
		if err != nil {
			t.Fatalf("column %s: %v", cd.Name.String(), err)
		}
		tbl.Columns = append(tbl.Columns, col)
	}
	var pk *catalog.Index
	for i, cd := range ct.TableSpec.Columns {
		if cd.Type.Options.KeyOpt == 1 { // ColKeyPrimary
			pk = &catalog.Index{Name: "PRIMARY", Primary: true, Unique: true, Columns: []catalog.IndexColumn{{Col: i}}}
		}
	}
	var others []*catalog.Index
	for _, id := range ct.TableSpec.Indexes {
		ix := &catalog.Index{Name: id.Info.Name.String()}
		for _, c := range id.Columns {
			ic := catalog.IndexColumn{Col: tbl.ColumnIndex(c.Column.String()), Desc: c.Direction == 1}
			if c.Length != nil {
				ic.Prefix = *c.Length
			}
			ix.Columns = append(ix.Columns, ic)
		}
		switch id.Info.Type {
		case 1: // primary
			ix.Primary, ix.Unique, ix.Name = true, true, "PRIMARY"
			pk = ix
			continue
		case 2: // unique
			ix.Unique = true
		}
		others = append(others, ix)
	}
	if pk == nil {
		pk = &catalog.Index{Name: "PRIMARY", Primary: true}
		tbl.HiddenPK = true
	}
	tbl.Indexes = append([]*catalog.Index{pk}, others...)
	return tbl
}

func TestShowCreateTable(t *testing.T) {
	cases := []struct {
		sql     string
		autoInc uint64
		want    string
	}{{
		sql: "CREATE TABLE sbtest1 (id INTEGER NOT NULL AUTO_INCREMENT, k INTEGER DEFAULT '0' NOT NULL, " +
			"c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id), KEY k_1(k))",
		autoInc: 5,
		want: "CREATE TABLE `sbtest1` (\n" +
			"  `id` int NOT NULL AUTO_INCREMENT,\n" +
			"  `k` int NOT NULL DEFAULT '0',\n" +
			"  `c` char(120) NOT NULL DEFAULT '',\n" +
			"  `pad` char(60) NOT NULL DEFAULT '',\n" +
			"  PRIMARY KEY (`id`),\n" +
			"  KEY `k_1` (`k`)\n" +
			") ENGINE=InnoDB AUTO_INCREMENT=5 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci",
	}, {
		sql: "create table t (a int, b varchar(20) collate utf8mb4_bin, c text, d timestamp null, " +
			"e datetime(3) not null default current_timestamp(3) on update current_timestamp(3), " +
			"f decimal(10,2) unsigned default 1.5, g enum('x','y''s') default 'x' comment 'it''s', " +
			"h varchar(5) character set latin1, i bit(3) default b'101', j json, " +
			"key k_b (b(10) desc), unique key u (a, b)) comment 'tbl'",
		want: "CREATE TABLE `t` (\n" +
			"  `a` int DEFAULT NULL,\n" +
			"  `b` varchar(20) COLLATE utf8mb4_bin DEFAULT NULL,\n" +
			"  `c` text,\n" +
			"  `d` timestamp NULL DEFAULT NULL,\n" +
			"  `e` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),\n" +
			"  `f` decimal(10,2) unsigned DEFAULT '1.50',\n" +
			"  `g` enum('x','y''s') DEFAULT 'x' COMMENT 'it''s',\n" +
			"  `h` varchar(5) CHARACTER SET latin1 COLLATE latin1_swedish_ci DEFAULT NULL,\n" +
			"  `i` bit(3) DEFAULT b'101',\n" +
			"  `j` json,\n" +
			"  UNIQUE KEY `u` (`a`,`b`),\n" +
			"  KEY `k_b` (`b`(10) DESC)\n" +
			") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci COMMENT='tbl'",
	}, {
		sql: "create table `we``ird` (x int default (rand() * 10)) collate utf8mb4_0900_ai_ci",
		want: "CREATE TABLE `we``ird` (\n" +
			"  `x` int DEFAULT (rand() * 10)\n" +
			") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci",
	}}
	for _, tc := range cases {
		tbl := buildTable(t, tc.sql)
		if got := ShowCreateTable(tbl, tc.autoInc); got != tc.want {
			t.Errorf("SHOW CREATE TABLE mismatch\n got: %s\nwant: %s", got, tc.want)
		}
	}
}

// TestShowCreateTableChecks: foreign keys, then CHECK constraints in the
// table's (MySQL's) order, NOT ENFORCED in a version comment.
func TestShowCreateTableChecks(t *testing.T) {
	tbl := buildTable(t, "create table `c``k` (a int, b int)")
	tbl.ForeignKeys = []string{"CONSTRAINT `fk` FOREIGN KEY (`a`) REFERENCES `p` (`id`)"}
	tbl.Checks = []catalog.CheckConstraint{
		{Name: "a`b", Clause: "(`a` > 0)"},
		{Name: "c``k_chk_1", Clause: "((`a` + `b`) < 10)", NotEnforced: true},
	}
	want := "CREATE TABLE `c``k` (\n" +
		"  `a` int DEFAULT NULL,\n" +
		"  `b` int DEFAULT NULL,\n" +
		"  CONSTRAINT `fk` FOREIGN KEY (`a`) REFERENCES `p` (`id`),\n" +
		"  CONSTRAINT `a``b` CHECK ((`a` > 0)),\n" +
		"  CONSTRAINT `c````k_chk_1` CHECK (((`a` + `b`) < 10)) /*!80016 NOT ENFORCED */\n" +
		") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci"
	if got := ShowCreateTable(tbl, 0); got != want {
		t.Errorf("SHOW CREATE TABLE mismatch\n got: %s\nwant: %s", got, want)
	}
}

func TestQuoteIdent(t *testing.T) {
	if got := QuoteIdent("a`b"); got != "`a``b`" {
		t.Fatalf("got %s", got)
	}
}

func TestFieldSysbench(t *testing.T) {
	tbl := buildTable(t, "CREATE TABLE sbtest1 (id INTEGER NOT NULL AUTO_INCREMENT PRIMARY KEY, "+
		"k INTEGER DEFAULT '0' NOT NULL, c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, KEY k_1(k))")
	const (
		notNull = uint32(querypb.MySqlFlag_NOT_NULL_FLAG)
		pri     = uint32(querypb.MySqlFlag_PRI_KEY_FLAG)
		multi   = uint32(querypb.MySqlFlag_MULTIPLE_KEY_FLAG)
		autoInc = uint32(querypb.MySqlFlag_AUTO_INCREMENT_FLAG)
		partKey = uint32(querypb.MySqlFlag_PART_KEY_FLAG)
		numFlag = uint32(querypb.MySqlFlag_NUM_FLAG)
	)
	want := []struct {
		typ     querypb.Type
		length  uint32
		charset uint32
		flags   uint32
	}{
		{querypb.Type_INT32, 11, 63, notNull | pri | autoInc | partKey | numFlag},
		{querypb.Type_INT32, 11, 63, notNull | multi | partKey | numFlag},
		{querypb.Type_CHAR, 480, 45, notNull},
		{querypb.Type_CHAR, 240, 45, notNull},
	}
	for i, w := range want {
		f := Field(tbl, i, "")
		if f.Type != w.typ || f.ColumnLength != w.length || f.Charset != w.charset || f.Flags != w.flags ||
			f.Name != tbl.Columns[i].Name || f.OrgName != tbl.Columns[i].Name || f.Table != "sbtest1" || f.Database != "db" {
			t.Errorf("column %d: got %v", i, f)
		}
	}
	if f := Field(tbl, 0, "x"); f.Name != "x" || f.OrgName != "id" {
		t.Errorf("alias: %v", f)
	}
}

func TestFieldTypes(t *testing.T) {
	tbl := buildTable(t, "create table t (pk varbinary(16) primary key, a float, b double, c decimal(5,2), "+
		"d datetime(6), e timestamp, f text, g blob, h json, i enum('a','bb'), j set('a','b'), k year, l bit(8), "+
		"m varchar(4) collate utf8mb4_bin, n int not null, o tinyint unsigned)")
	want := []struct{ length, decimals, flags uint32 }{
		{16, 0, 16515 | 4096},
		{12, 31, 32768},
		{22, 31, 32768},
		{7, 2, 32768},
		{26, 6, 128},
		{19, 0, 1152},
		{262140, 0, 16},
		{65535, 0, 144},
		{4294967295, 0, 144},
		{8, 0, 256},
		{12, 0, 2048},
		{4, 0, 32864},
		{8, 0, 32},
		{16, 0, 128},
		{11, 0, 32768 | 4096 | 1},
		{3, 0, 32800},
	}
	for i, w := range want {
		f := Field(tbl, i, "")
		if f.ColumnLength != w.length || f.Decimals != w.decimals || f.Flags != w.flags {
			t.Errorf("column %s: got length=%d decimals=%d flags=%d; want %v", f.Name, f.ColumnLength, f.Decimals, f.Flags, w)
		}
	}
}

func TestEvalType(t *testing.T) {
	col := mustCol(t, "c decimal(10,2) not null")
	et := EvalType(col)
	if et.Type() != col.Type || et.Nullable() || et.Size() != 10 || et.Scale() != 2 || et.Collation() != collations.CollationBinaryID {
		t.Errorf("decimal: %+v", et)
	}
	col = mustCol(t, "c enum('a','b') collate utf8mb4_bin")
	et = EvalType(col)
	if et.Collation() != 46 || !et.Nullable() || et.Values() == nil || len(*et.Values()) != 2 || (*et.Values())[0] != "'a'" {
		t.Errorf("enum: %+v", et)
	}
}
