package vtable

import (
	"sort"
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sysvar"
)

// information_schema tables describing the server rather than schema
// objects (ENGINES, CHARACTER_SETS, COLLATIONS, PLUGINS, PROCESSLIST,
// variables, status, privileges), and the performance_schema and mysql
// tables that clients commonly read.

func init() {
	const is = InformationSchema
	define(is, "ENGINES", []string{
		"ENGINE s64", "SUPPORT s8", "COMMENT s80", "TRANSACTIONS s3?", "XA s3?",
		"SAVEPOINTS s3?",
	}, enginesRows)
	define(is, "CHARACTER_SETS", []string{
		"CHARACTER_SET_NAME s64", "DEFAULT_COLLATE_NAME s64", "DESCRIPTION s2048",
		"MAXLEN iu",
	}, characterSetsRows)
	define(is, "COLLATIONS", []string{
		"COLLATION_NAME s64", "CHARACTER_SET_NAME s64", "ID bu", "IS_DEFAULT s3",
		"IS_COMPILED s3", "SORTLEN iu", "PAD_ATTRIBUTE s9",
	}, collationsRows)
	define(is, "COLLATION_CHARACTER_SET_APPLICABILITY", []string{
		"COLLATION_NAME s64", "CHARACTER_SET_NAME s64",
	}, collationApplicabilityRows)
	define(is, "PLUGINS", []string{
		"PLUGIN_NAME s64", "PLUGIN_VERSION s20", "PLUGIN_STATUS s10", "PLUGIN_TYPE s80",
		"PLUGIN_TYPE_VERSION s20", "PLUGIN_LIBRARY s64?", "PLUGIN_LIBRARY_VERSION s20?",
		"PLUGIN_AUTHOR s64?", "PLUGIN_DESCRIPTION t?", "PLUGIN_LICENSE s80?",
		"LOAD_OPTION s64",
	}, pluginsRows)
	define(is, "PROCESSLIST", []string{
		"ID bu", "USER s32", "HOST s261", "DB s64?", "COMMAND s16", "TIME i",
		"STATE s64?", "INFO lt?",
	}, processlistRows)
	define(is, "SESSION_VARIABLES", varColumns, varRows(false, true))
	define(is, "GLOBAL_VARIABLES", varColumns, varRows(true, true))
	define(is, "SESSION_STATUS", varColumns, statusRows(true, false))
	define(is, "GLOBAL_STATUS", varColumns, statusRows(true, true))
	define(is, "USER_PRIVILEGES", []string{
		"GRANTEE s292", "TABLE_CATALOG s512", "PRIVILEGE_TYPE s64", "IS_GRANTABLE s3",
	}, userPrivilegesRows)
	define(is, "SCHEMA_PRIVILEGES", []string{
		"GRANTEE s292", "TABLE_CATALOG s512", "TABLE_SCHEMA s64", "PRIVILEGE_TYPE s64",
		"IS_GRANTABLE s3",
	}, schemaPrivilegesRows)
	define(is, "TABLE_PRIVILEGES", []string{
		"GRANTEE s292", "TABLE_CATALOG s512", "TABLE_SCHEMA s64", "TABLE_NAME s64",
		"PRIVILEGE_TYPE s64", "IS_GRANTABLE s3",
	}, tablePrivilegesRows)
	define(is, "COLUMN_PRIVILEGES", []string{
		"GRANTEE s292", "TABLE_CATALOG s512", "TABLE_SCHEMA s64", "TABLE_NAME s64",
		"COLUMN_NAME s64", "PRIVILEGE_TYPE s64", "IS_GRANTABLE s3",
	}, columnPrivilegesRows)

	const ps = "performance_schema"
	psVarColumns := []string{"VARIABLE_NAME s64", "VARIABLE_VALUE s1024?"}
	define(ps, "session_variables", psVarColumns, varRows(false, false))
	define(ps, "global_variables", psVarColumns, varRows(true, false))
	define(ps, "session_status", psVarColumns, statusRows(false, false))
	define(ps, "global_status", psVarColumns, statusRows(false, true))

	const my = "mysql"
	define(my, "user", []string{
		"Host s255", "User s32", "plugin s64", "authentication_string t?",
	}, func(src Source, out *Rows) error {
		out.Add("%", src.Conn().User, "mysql_native_password", "")
		return nil
	})
	define(my, "db", []string{
		"Host s255", "Db s64", "User s32",
	}, noRows)
	// columns_priv without its Timestamp: strata does not record when a
	// grant was made.
	define(my, "columns_priv", []string{
		"Host s255", "Db s64", "User s32", "Table_name s64", "Column_name s64", "Column_priv s31",
	}, columnsPrivRows)
}

// varColumns are the columns of information_schema's variable and status
// tables (MySQL 5.7 layout).
var varColumns = []string{"VARIABLE_NAME s64", "VARIABLE_VALUE s1024?"}

// varRows lists system variables: global values (session-only variables
// left out) or the session's values. upper upper-cases the names
// (information_schema, as MySQL 5.7 did).
func varRows(global, upper bool) Generator {
	return func(src Source, out *Rows) error {
		for _, n := range src.SysVarNames() {
			if d, ok := sysvar.Lookup(n); ok && global && d.Scope == sysvar.Session {
				continue
			}
			v := src.SysVar(n, global)
			name := n
			if upper {
				name = strings.ToUpper(n)
			}
			out.Add(name, VarText(n, v))
		}
		return nil
	}
}

// statusRows lists status variables: the session's, or with global the
// server's.
func statusRows(upper, global bool) Generator {
	return func(src Source, out *Rows) error {
		for _, kv := range src.StatusVars(global) {
			name := kv[0]
			if upper {
				name = strings.ToUpper(name)
			}
			out.Add(name, kv[1])
		}
		return nil
	}
}

func enginesRows(_ Source, out *Rows) error {
	out.Add("InnoDB", "DEFAULT", "strata LSM storage engine (MyRocks-style, on Pebble); reported as InnoDB for compatibility", "YES", "NO", "YES")
	out.Add("ROCKSDB", "YES", "Alias of the strata engine", "YES", "NO", "YES")
	return nil
}

// charsetDescriptions are MySQL 8.0's CHARACTER_SETS.DESCRIPTION values.
var charsetDescriptions = map[string]string{
	"armscii8": "ARMSCII-8 Armenian", "ascii": "US ASCII", "big5": "Big5 Traditional Chinese",
	"binary": "Binary pseudo charset", "cp1250": "Windows Central European",
	"cp1251": "Windows Cyrillic", "cp1256": "Windows Arabic", "cp1257": "Windows Baltic",
	"cp850": "DOS West European", "cp852": "DOS Central European", "cp866": "DOS Russian",
	"cp932": "SJIS for Windows Japanese", "dec8": "DEC West European",
	"eucjpms": "UJIS for Windows Japanese", "euckr": "EUC-KR Korean",
	"gb18030": "China National Standard GB18030", "gb2312": "GB2312 Simplified Chinese",
	"gbk": "GBK Simplified Chinese", "geostd8": "GEOSTD8 Georgian",
	"greek": "ISO 8859-7 Greek", "hebrew": "ISO 8859-8 Hebrew", "hp8": "HP West European",
	"keybcs2": "DOS Kamenicky Czech-Slovak", "koi8r": "KOI8-R Relcom Russian",
	"koi8u": "KOI8-U Ukrainian", "latin1": "cp1252 West European",
	"latin2": "ISO 8859-2 Central European", "latin5": "ISO 8859-9 Turkish",
	"latin7": "ISO 8859-13 Baltic", "macce": "Mac Central European",
	"macroman": "Mac West European", "sjis": "Shift-JIS Japanese", "swe7": "7bit Swedish",
	"tis620": "TIS620 Thai", "ucs2": "UCS-2 Unicode", "ujis": "EUC-JP Japanese",
	"utf16": "UTF-16 Unicode", "utf16le": "UTF-16LE Unicode", "utf32": "UTF-32 Unicode",
	"utf8mb3": "UTF-8 Unicode", "utf8mb4": "UTF-8 Unicode",
}

var collEnv8 = collations.MySQL8()

// defaultCollationOf is a charset's default collation as strata resolves
// CHARACTER SET without COLLATE (utf8mb4_general_ci for utf8mb4).
func defaultCollationOf(cs string) collations.ID {
	if cs == "utf8mb4" {
		return coltype.DefaultCollation
	}
	return collEnv8.DefaultCollationForCharset(cs)
}

// allCollations lists the collations strata knows, sorted by name.
func allCollations() []collations.ID {
	ids := collEnv8.AllCollationIDs()
	sort.Slice(ids, func(i, j int) bool { return collEnv8.LookupName(ids[i]) < collEnv8.LookupName(ids[j]) })
	return ids
}

func characterSetsRows(_ Source, out *Rows) error {
	seen := map[string]bool{}
	var names []string
	for _, id := range collEnv8.AllCollationIDs() {
		cs := collEnv8.LookupCharsetName(id)
		if cs != "" && !seen[cs] {
			seen[cs] = true
			names = append(names, cs)
		}
	}
	sort.Strings(names)
	for _, cs := range names {
		def := defaultCollationOf(cs)
		out.Add(cs, collEnv8.LookupName(def), charsetDescriptions[cs], coltype.MaxCharLen(def))
	}
	return nil
}

// padAttribute is COLLATIONS.PAD_ATTRIBUTE: UCA 9.0.0 collations and binary
// do not pad.
func padAttribute(name string) string {
	if name == "binary" || strings.Contains(name, "_0900_") {
		return "NO PAD"
	}
	return "PAD SPACE"
}

func collationsRows(_ Source, out *Rows) error {
	for _, id := range allCollations() {
		name := collEnv8.LookupName(id)
		cs := collEnv8.LookupCharsetName(id)
		def := ""
		if defaultCollationOf(cs) == id {
			def = "Yes"
		}
		out.Add(name, cs, uint64(id), def, "Yes", 1, padAttribute(name))
	}
	return nil
}

func collationApplicabilityRows(_ Source, out *Rows) error {
	for _, id := range allCollations() {
		out.Add(collEnv8.LookupName(id), collEnv8.LookupCharsetName(id))
	}
	return nil
}

func pluginsRows(_ Source, out *Rows) error {
	out.Add("mysql_native_password", "1.1", "ACTIVE", "AUTHENTICATION", "2.1", nil, nil,
		"Oracle Corporation", "Native MySQL authentication", "GPL", "FORCE")
	out.Add("ROCKSDB", "1.0", "ACTIVE", "STORAGE ENGINE", "80040.0", nil, nil,
		"strata", "strata LSM storage engine (Pebble)", "GPL", "FORCE")
	return nil
}

func processlistRows(src Source, out *Rows) error {
	for _, t := range src.Threads() {
		var db, state, info any
		if t.DB != "" {
			db = t.DB
		}
		state = ""
		if t.Command == "Query" {
			state, info = "executing", t.Info
			if t.State != "" {
				state = t.State
			}
		}
		out.Add(uint64(t.ID), t.User, t.Host, db, t.Command, t.Time, state, info)
	}
	return nil
}

// userPrivilegesRows lists the session account's global privileges (USAGE
// when it holds none), as MySQL lists them to an account without SELECT on
// the mysql schema.
func userPrivilegesRows(src Source, out *Rows) error {
	global := privilege.All(privilege.Global) | privilege.GrantOption
	if sub := src.Subject(); sub != nil {
		global = sub.Grants.Global
	}
	grantable := yesNo(global.Has(privilege.GrantOption))
	grantee := "'" + src.Conn().User + "'@'" + src.AccountHost() + "'"
	names := (global &^ privilege.GrantOption).Names()
	if len(names) == 0 {
		names = []string{"USAGE"}
	}
	for _, p := range names {
		out.Add(grantee, "def", p, grantable)
	}
	return nil
}

// VarText is a system variable's value as SHOW VARIABLES and the variable
// tables print it: ON/OFF for booleans.
func VarText(name string, v sqltypes.Value) string {
	if d, ok := sysvar.Lookup(name); ok && d.Kind == sysvar.Bool {
		if v.ToString() == "1" {
			return "ON"
		}
		return "OFF"
	}
	return v.ToString()
}

// columnPrivilegesRows lists column grants, one row per column and
// privilege: every account's to root and to accounts holding SELECT on the
// mysql schema, the session account's own to the others (as MySQL does).
// IS_GRANTABLE says whether the account holds GRANT OPTION on the table.
func columnPrivilegesRows(src Source, out *Rows) error {
	return eachGrantee(src, func(u *catalog.User, g privilege.Grants, grantee string) {
		for _, k := range sortedKeys(u.Column) {
			db, table, col := privilege.SplitColumnKey(k)
			p, _ := privilege.FromColumnList(u.Column[k])
			grantable := yesNo(g.Table[privilege.TableKey(db, table)].Has(privilege.GrantOption))
			for _, name := range p.Names() {
				out.Add(grantee, "def", db, table, col, name, grantable)
			}
		}
	})
}

// schemaPrivilegesRows is SCHEMA_PRIVILEGES: one row per privilege an
// account holds on a database (GRANT … ON db.*), GRANT OPTION shown as
// IS_GRANTABLE.
func schemaPrivilegesRows(src Source, out *Rows) error {
	return eachGrantee(src, func(_ *catalog.User, g privilege.Grants, grantee string) {
		for _, db := range sortedKeys(g.DB) {
			p := g.DB[db]
			for _, name := range (p &^ privilege.GrantOption).Names() {
				out.Add(grantee, "def", db, name, yesNo(p.Has(privilege.GrantOption)))
			}
		}
	})
}

// tablePrivilegesRows is TABLE_PRIVILEGES: one row per privilege an
// account holds on a table (GRANT … ON db.t).
func tablePrivilegesRows(src Source, out *Rows) error {
	return eachGrantee(src, func(_ *catalog.User, g privilege.Grants, grantee string) {
		for _, k := range sortedKeys(g.Table) {
			db, table, _ := strings.Cut(k, "\x00")
			p := g.Table[k]
			for _, name := range (p &^ privilege.GrantOption).Names() {
				out.Add(grantee, "def", db, table, name, yesNo(p.Has(privilege.GrantOption)))
			}
		}
	})
}

// eachGrantee calls fn for every account whose grants the session may
// read, as MySQL lists them in the *_PRIVILEGES tables: its own account,
// or every account with SELECT on the mysql schema.
func eachGrantee(src Source, fn func(u *catalog.User, g privilege.Grants, grantee string)) error {
	sub := src.Subject()
	all := sub == nil || sub.Grants.OnDB("mysql").Has(privilege.Select)
	for _, u := range src.Catalog().Users() {
		if !all && (u.Name != src.Conn().User || u.Host != src.AccountHost()) {
			continue
		}
		fn(u, privilege.FromUser(u), "'"+u.Name+"'@'"+u.Host+"'")
	}
	return nil
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func yesNo(b bool) string {
	if b {
		return "YES"
	}
	return "NO"
}

// columnsPrivRows is mysql.columns_priv: one row per account and column
// holding column privileges, Column_priv spelled as MySQL's SET spells it
// ("Select,Update").
func columnsPrivRows(src Source, out *Rows) error {
	for _, u := range src.Catalog().Users() {
		for _, k := range sortedKeys(u.Column) {
			db, table, col := privilege.SplitColumnKey(k)
			p, _ := privilege.FromColumnList(u.Column[k])
			var set []string
			for _, n := range p.Names() {
				set = append(set, n[:1]+strings.ToLower(n[1:]))
			}
			out.Add(u.Host, db, u.Name, table, col, strings.Join(set, ","))
		}
	}
	return nil
}
