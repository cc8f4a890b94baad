package sql

import (
	"sort"
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/colldata"

	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sysvar"
)

// information_schema tables describing the server rather than schema
// objects (ENGINES, CHARACTER_SETS, COLLATIONS, PLUGINS, PROCESSLIST,
// variables, status, privileges), and the performance_schema and mysql
// tables that clients commonly read.

func init() {
	const is = "information_schema"
	defineSys(is, "ENGINES", []string{
		"ENGINE s64", "SUPPORT s8", "COMMENT s80", "TRANSACTIONS s3?", "XA s3?",
		"SAVEPOINTS s3?",
	}, enginesRows)
	defineSys(is, "CHARACTER_SETS", []string{
		"CHARACTER_SET_NAME s64", "DEFAULT_COLLATE_NAME s64", "DESCRIPTION s2048",
		"MAXLEN iu",
	}, characterSetsRows)
	defineSys(is, "COLLATIONS", []string{
		"COLLATION_NAME s64", "CHARACTER_SET_NAME s64", "ID bu", "IS_DEFAULT s3",
		"IS_COMPILED s3", "SORTLEN iu", "PAD_ATTRIBUTE s9",
	}, collationsRows)
	defineSys(is, "COLLATION_CHARACTER_SET_APPLICABILITY", []string{
		"COLLATION_NAME s64", "CHARACTER_SET_NAME s64",
	}, collationApplicabilityRows)
	defineSys(is, "PLUGINS", []string{
		"PLUGIN_NAME s64", "PLUGIN_VERSION s20", "PLUGIN_STATUS s10", "PLUGIN_TYPE s80",
		"PLUGIN_TYPE_VERSION s20", "PLUGIN_LIBRARY s64?", "PLUGIN_LIBRARY_VERSION s20?",
		"PLUGIN_AUTHOR s64?", "PLUGIN_DESCRIPTION t?", "PLUGIN_LICENSE s80?",
		"LOAD_OPTION s64",
	}, pluginsRows)
	defineSys(is, "PROCESSLIST", []string{
		"ID bu", "USER s32", "HOST s261", "DB s64?", "COMMAND s16", "TIME i",
		"STATE s64?", "INFO lt?",
	}, processlistRows)
	defineSys(is, "SESSION_VARIABLES", varColumns, varRows(false, true))
	defineSys(is, "GLOBAL_VARIABLES", varColumns, varRows(true, true))
	defineSys(is, "SESSION_STATUS", varColumns, statusRows(true, false))
	defineSys(is, "GLOBAL_STATUS", varColumns, statusRows(true, true))
	defineSys(is, "USER_PRIVILEGES", []string{
		"GRANTEE s292", "TABLE_CATALOG s512", "PRIVILEGE_TYPE s64", "IS_GRANTABLE s3",
	}, userPrivilegesRows)
	defineSys(is, "SCHEMA_PRIVILEGES", []string{
		"GRANTEE s292", "TABLE_CATALOG s512", "TABLE_SCHEMA s64", "PRIVILEGE_TYPE s64",
		"IS_GRANTABLE s3",
	}, noRows)
	defineSys(is, "TABLE_PRIVILEGES", []string{
		"GRANTEE s292", "TABLE_CATALOG s512", "TABLE_SCHEMA s64", "TABLE_NAME s64",
		"PRIVILEGE_TYPE s64", "IS_GRANTABLE s3",
	}, noRows)
	defineSys(is, "COLUMN_PRIVILEGES", []string{
		"GRANTEE s292", "TABLE_CATALOG s512", "TABLE_SCHEMA s64", "TABLE_NAME s64",
		"COLUMN_NAME s64", "PRIVILEGE_TYPE s64", "IS_GRANTABLE s3",
	}, noRows)

	const ps = "performance_schema"
	psVarColumns := []string{"VARIABLE_NAME s64", "VARIABLE_VALUE s1024?"}
	defineSys(ps, "session_variables", psVarColumns, varRows(false, false))
	defineSys(ps, "global_variables", psVarColumns, varRows(true, false))
	defineSys(ps, "session_status", psVarColumns, statusRows(false, false))
	defineSys(ps, "global_status", psVarColumns, statusRows(false, true))

	const my = "mysql"
	defineSys(my, "user", []string{
		"Host s255", "User s32", "plugin s64", "authentication_string t?",
	}, func(s *Session, _ *execCtx, out *sysRows) error {
		out.add("%", s.User, "mysql_native_password", "")
		return nil
	})
	defineSys(my, "db", []string{
		"Host s255", "Db s64", "User s32",
	}, noRows)
}

// varColumns are the columns of information_schema's variable and status
// tables (MySQL 5.7 layout).
var varColumns = []string{"VARIABLE_NAME s64", "VARIABLE_VALUE s1024?"}

// varRows lists system variables: global values (session-only variables
// left out) or the session's values. upper
// upper-cases the names (information_schema, as MySQL 5.7 did).
func varRows(global, upper bool) func(*Session, *execCtx, *sysRows) error {
	return func(s *Session, _ *execCtx, out *sysRows) error {
		for _, n := range s.eng.Globals.Names() {
			if d, ok := sysvar.Lookup(n); ok && global && d.Scope == sysvar.Session {
				continue
			}
			v, _ := s.eng.Globals.Get(n)
			if !global {
				v, _ = s.sysVar(n)
			}
			name := n
			if upper {
				name = strings.ToUpper(n)
			}
			out.add(name, showVarText(n, v))
		}
		return nil
	}
}

// statusRows lists status variables: the session's, or with global the
// server's.
func statusRows(upper, global bool) func(*Session, *execCtx, *sysRows) error {
	return func(s *Session, _ *execCtx, out *sysRows) error {
		for _, kv := range s.statusVars(global) {
			name := kv[0]
			if upper {
				name = strings.ToUpper(name)
			}
			out.add(name, kv[1])
		}
		return nil
	}
}

func enginesRows(_ *Session, _ *execCtx, out *sysRows) error {
	out.add("InnoDB", "DEFAULT", "strata LSM storage engine (MyRocks-style, on Pebble); reported as InnoDB for compatibility", "YES", "NO", "YES")
	out.add("ROCKSDB", "YES", "Alias of the strata engine", "YES", "NO", "YES")
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

// charsetMaxLen is the maximum bytes per character of a collation's charset.
func charsetMaxLen(id collations.ID) int {
	if c := colldata.Lookup(id); c != nil {
		return c.Charset().MaxWidth()
	}
	return 1
}

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

func characterSetsRows(_ *Session, _ *execCtx, out *sysRows) error {
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
		out.add(cs, collEnv8.LookupName(def), charsetDescriptions[cs], charsetMaxLen(def))
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

func collationsRows(_ *Session, _ *execCtx, out *sysRows) error {
	for _, id := range allCollations() {
		name := collEnv8.LookupName(id)
		cs := collEnv8.LookupCharsetName(id)
		def := ""
		if defaultCollationOf(cs) == id {
			def = "Yes"
		}
		out.add(name, cs, uint64(id), def, "Yes", 1, padAttribute(name))
	}
	return nil
}

func collationApplicabilityRows(_ *Session, _ *execCtx, out *sysRows) error {
	for _, id := range allCollations() {
		out.add(collEnv8.LookupName(id), collEnv8.LookupCharsetName(id))
	}
	return nil
}

func pluginsRows(_ *Session, _ *execCtx, out *sysRows) error {
	out.add("mysql_native_password", "1.1", "ACTIVE", "AUTHENTICATION", "2.1", nil, nil,
		"Oracle Corporation", "Native MySQL authentication", "GPL", "FORCE")
	out.add("ROCKSDB", "1.0", "ACTIVE", "STORAGE ENGINE", "80040.0", nil, nil,
		"strata", "strata LSM storage engine (Pebble)", "GPL", "FORCE")
	return nil
}

func processlistRows(s *Session, _ *execCtx, out *sysRows) error {
	var db any
	if s.DB != "" {
		db = s.DB
	}
	out.add(uint64(s.ConnID), s.User, s.Host, db, "Query", 0, "executing", nil)
	return nil
}

// userPrivilegesRows lists the session account's global privileges (USAGE
// when it holds none), as MySQL lists them to an account without SELECT on
// the mysql schema.
func userPrivilegesRows(s *Session, _ *execCtx, out *sysRows) error {
	grantable := "YES"
	global := privilege.All(privilege.Global) | privilege.GrantOption
	if sub := s.subject(); sub != nil {
		global = sub.Grants.Global
		if !global.Has(privilege.GrantOption) {
			grantable = "NO"
		}
	}
	grantee := "'" + s.User + "'@'" + s.accountHost() + "'"
	names := (global &^ privilege.GrantOption).Names()
	if len(names) == 0 {
		names = []string{"USAGE"}
	}
	for _, p := range names {
		out.add(grantee, "def", p, grantable)
	}
	return nil
}
