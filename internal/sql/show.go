package sql

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/sql/sysvar"
	"github.com/strata-db/strata/internal/sql/vtable"
)

// textResult builds a result of VARCHAR columns.
func textResult(names []string, rows [][]string) *sqltypes.Result {
	res := &sqltypes.Result{}
	for _, n := range names {
		res.Fields = append(res.Fields, &querypb.Field{Name: n, Type: sqltypes.VarChar, Charset: 45, ColumnLength: 256})
	}
	for _, r := range rows {
		row := make(Row, len(r))
		for i, v := range r {
			if v == "\x00NULL" {
				row[i] = sqltypes.NULL
			} else {
				row[i] = sqltypes.NewVarChar(v)
			}
		}
		res.Rows = append(res.Rows, row)
	}
	return res
}

const nullStr = "\x00NULL"

// likeMatch implements SQL LIKE with % and _ (case-insensitive, as SHOW
// filters use utf8 general collation).
func likeMatch(pattern, s string) bool {
	p := []rune(strings.ToLower(pattern))
	t := []rune(strings.ToLower(s))
	var match func(i, j int) bool
	match = func(i, j int) bool {
		for i < len(p) {
			switch p[i] {
			case '%':
				for k := j; k <= len(t); k++ {
					if match(i+1, k) {
						return true
					}
				}
				return false
			case '_':
				if j >= len(t) {
					return false
				}
			case '\\':
				if i+1 < len(p) {
					i++
				}
				fallthrough
			default:
				if j >= len(t) || t[j] != p[i] {
					return false
				}
			}
			i++
			j++
		}
		return j == len(t)
	}
	return match(0, 0)
}

func (s *Session) execShow(ctx context.Context, st *sqlparser.Show) (*sqltypes.Result, error) {
	switch sh := st.Internal.(type) {
	case *sqlparser.ShowBasic:
		return s.showBasic(ctx, sh)
	case *sqlparser.ShowCreate:
		return s.showCreate(ctx, sh)
	case *sqlparser.ShowEngine:
		return s.showEngine(sh)
	case *sqlparser.ShowGrants:
		// Reached when the account statement parser did not take the text
		// (a leading comment, USING): the same listing.
		target := ""
		if sh.User != nil && sh.User.Name != nil {
			host := "%"
			if sh.User.Host != nil {
				host = *sh.User.Host
			}
			target = "'" + *sh.User.Name + "'@'" + host + "'"
		}
		res, _, err := s.showGrants(target)
		return res, err
	case *sqlparser.ShowBinaryLogs:
		return s.showBinaryLogs()
	case *sqlparser.ShowReplicationSourceStatus:
		return s.showBinlogStatus()
	case *sqlparser.ShowBinlogEvents:
		return s.showBinlogEvents(ctx, sh)
	case *sqlparser.ShowReplicationStatus, *sqlparser.ShowReplicas:
		return &sqltypes.Result{}, nil
	}
	return nil, sqlerr.Unsupported("SHOW")
}

func filterLike(f *sqlparser.ShowFilter) string {
	if f == nil {
		return ""
	}
	return f.Like
}

func (s *Session) showBasic(ctx context.Context, sh *sqlparser.ShowBasic) (*sqltypes.Result, error) {
	like := filterLike(sh.Filter)
	if sh.Filter != nil && sh.Filter.Filter != nil {
		return s.showWhere(ctx, sh)
	}
	switch sh.Command {
	case sqlparser.Database:
		var rows [][]string
		for _, n := range s.schemaNames() {
			if like == "" || likeMatch(like, n) {
				rows = append(rows, []string{n})
			}
		}
		sort.Slice(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] })
		name := "Database"
		if like != "" {
			name = "Database (" + like + ")"
		}
		return textResult([]string{name}, rows), nil
	case sqlparser.Table:
		db := sh.DbName.String()
		if db == "" {
			db = s.DB
		}
		if db == "" {
			return nil, sqlerr.NoDB()
		}
		if s.eng.Cat.Database(db) == nil && !isSystemSchema(db) {
			return nil, sqlerr.New(sqlerror.ERBadDb, sqlerror.SSClientError, "Unknown database '%s'", db)
		}
		col := "Tables_in_" + db
		if like != "" {
			col += " (" + like + ")"
		}
		names := []string{col}
		if sh.Full {
			names = append(names, "Table_type")
		}
		var rows [][]string
		for _, t := range s.tablesOf(db) {
			if like != "" && !likeMatch(like, t.Name) {
				continue
			}
			r := []string{t.Name}
			if sh.Full {
				r = append(r, "BASE TABLE")
			}
			rows = append(rows, r)
		}
		rows = s.addViewRows(rows, db, like, sh.Full)
		return textResult(names, rows), nil
	case sqlparser.Column:
		t, err := s.showTarget(ctx, sh.Tbl, sh.DbName)
		if err != nil {
			return nil, err
		}
		return s.showColumns(t, sh.Full, like), nil
	case sqlparser.Index:
		t, err := s.showTarget(ctx, sh.Tbl, sh.DbName)
		if err != nil {
			return nil, err
		}
		return s.showIndex(t), nil
	case sqlparser.VariableGlobal, sqlparser.VariableSession:
		global := sh.Command == sqlparser.VariableGlobal
		var rows [][]string
		for _, n := range s.eng.Globals.Names() {
			if like != "" && !likeMatch(like, n) {
				continue
			}
			var v sqltypes.Value
			if global {
				if d, ok := sysvar.Lookup(n); ok && d.Scope == sysvar.Session {
					continue // session-only (timestamp)
				}
				v, _ = s.eng.Globals.Get(n)
			} else {
				v = s.sessionSysVar(n)
			}
			if n == "gtid_executed" || n == "gtid_purged" {
				v = s.gtidVar(n) // live (binlog.go)
			}
			rows = append(rows, []string{n, vtable.VarText(n, v)})
		}
		return textResult([]string{"Variable_name", "Value"}, rows), nil
	case sqlparser.StatusGlobal, sqlparser.StatusSession:
		table := "session_status"
		if sh.Command == sqlparser.StatusGlobal {
			table = "global_status"
		}
		return s.showFrom(ctx, "performance_schema", table, []string{"VARIABLE_NAME", "VARIABLE_VALUE"}, []string{"Variable_name", "Value"}, like)
	case sqlparser.Warnings, sqlparser.Errors:
		res := &sqltypes.Result{Fields: []*querypb.Field{
			{Name: "Level", Type: sqltypes.VarChar, Charset: 45},
			{Name: "Code", Type: sqltypes.Uint32, Charset: 63},
			{Name: "Message", Type: sqltypes.VarChar, Charset: 45},
		}}
		for _, w := range s.warnings {
			if sh.Command == sqlparser.Errors && w.Level != "Error" {
				continue
			}
			res.Rows = append(res.Rows, Row{sqltypes.NewVarChar(w.Level), sqltypes.NewUint32(uint32(w.Code)), sqltypes.NewVarChar(w.Message)})
		}
		return res, nil
	case sqlparser.TableStatus:
		db := sh.DbName.String()
		if db == "" {
			db = s.DB
		}
		if db == "" {
			return nil, sqlerr.NoDB()
		}
		return s.showTableStatus(ctx, db, like)
	case sqlparser.Engines:
		cols := []string{"ENGINE", "SUPPORT", "COMMENT", "TRANSACTIONS", "XA", "SAVEPOINTS"}
		return s.showFrom(ctx, "information_schema", "ENGINES", cols, []string{"Engine", "Support", "Comment", "Transactions", "XA", "Savepoints"}, "")
	case sqlparser.Charset:
		return textResult([]string{"Charset", "Description", "Default collation", "Maxlen"}, filterRows(like, [][]string{
			{"binary", "Binary pseudo charset", "binary", "1"},
			{"latin1", "cp1252 West European", "latin1_swedish_ci", "1"},
			{"utf8mb3", "UTF-8 Unicode", "utf8mb3_general_ci", "3"},
			{"utf8mb4", "UTF-8 Unicode", "utf8mb4_general_ci", "4"},
		})), nil
	case sqlparser.Collation:
		var rows [][]string
		env := collations.MySQL8()
		for _, id := range env.AllCollationIDs() {
			name := env.LookupName(id)
			cs := env.LookupCharsetName(id)
			def := ""
			if env.DefaultCollationForCharset(cs) == id {
				def = "Yes"
			}
			rows = append(rows, []string{name, cs, strconv.Itoa(int(id)), def, "Yes", "1"})
		}
		sort.Slice(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] })
		return textResult([]string{"Collation", "Charset", "Id", "Default", "Compiled", "Sortlen"}, filterRows(like, rows)), nil
	case sqlparser.ProcessList:
		cols := []string{"ID", "USER", "HOST", "DB", "COMMAND", "TIME", "STATE", "INFO"}
		res, err := s.showFrom(ctx, "information_schema", "PROCESSLIST", cols, []string{"Id", "User", "Host", "db", "Command", "Time", "State", "Info"}, "")
		if err != nil || sh.Full {
			return res, err
		}
		// Without FULL, MySQL shows the first 100 characters of Info.
		for _, r := range res.Rows {
			if info := r[7].ToString(); !r[7].IsNull() && utf8.RuneCountInString(info) > 100 {
				r[7] = sqltypes.NewVarChar(string([]rune(info)[:100]))
			}
		}
		return res, nil
	case sqlparser.Plugins:
		cols := []string{"PLUGIN_NAME", "PLUGIN_STATUS", "PLUGIN_TYPE", "PLUGIN_LIBRARY", "PLUGIN_LICENSE"}
		return s.showFrom(ctx, "information_schema", "PLUGINS", cols, []string{"Name", "Status", "Type", "Library", "License"}, "")
	case sqlparser.Trigger:
		return s.showTriggers(sh)
	case sqlparser.Procedure:
		return s.showRoutineStatus(ctx, "PROCEDURE", sh)
	case sqlparser.Function:
		return s.showRoutineStatus(ctx, "FUNCTION", sh)
	case sqlparser.Events, sqlparser.OpenTable, sqlparser.Privilege, sqlparser.Profiles:
		return &sqltypes.Result{}, nil
	}
	return nil, sqlerr.Unsupported("this SHOW statement")
}

func filterRows(like string, rows [][]string) [][]string {
	if like == "" {
		return rows
	}
	var out [][]string
	for _, r := range rows {
		if likeMatch(like, r[0]) {
			out = append(out, r)
		}
	}
	return out
}

// showWhere handles SHOW ... WHERE expr by filtering the unfiltered result.
func (s *Session) showWhere(ctx context.Context, sh *sqlparser.ShowBasic) (*sqltypes.Result, error) {
	cp := *sh
	cp.Filter = nil
	res, err := s.showBasic(ctx, &cp)
	if err != nil {
		return nil, err
	}
	sc := &eval.Scope{Where: "where clause"}
	for _, f := range res.Fields {
		sc.Cols = append(sc.Cols, eval.Column{Name: f.Name, Type: typeFromField(f), Field: f})
	}
	var names []string
	c := s.newCompiler(nil, sc, &names, nil)
	x, err := c.Compile(sh.Filter.Filter)
	if err != nil {
		return nil, err
	}
	ex := s.newExecCtx(ctx, nil, s.bindSessionVars(names, nil))
	var rows []Row
	for _, r := range res.Rows {
		ok, err := ex.EvalBool(x, r)
		if err != nil {
			return nil, err
		}
		if ok {
			rows = append(rows, r)
		}
	}
	res.Rows = rows
	return res, nil
}

// statusVars lists the status variables: the session's values, or with
// global the server's.
func (s *Session) statusVars(global bool) [][]string {
	st := s.eng.DB.Locks().Stats()
	uptime := int64(timeSince(s.eng.StartTime).Seconds())
	questions := &s.com.questions
	if global {
		questions = &s.eng.com.questions
	}
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	rows := s.comRows(global)
	rows = append(rows, s.handlerRows(global)...)
	rows = append(rows, s.sortStatusRows(global)...)
	rows = append(rows, s.storageStatus()...)
	rows = append(rows, [][]string{
		{"Connections", i(s.eng.connections.Load())},
		{"Innodb_row_lock_current_waits", i(st.Waiters)},
		{"Innodb_row_lock_waits", u(st.Waits)},
		{"Innodb_deadlocks", u(st.Deadlocks)},
		{"Max_used_connections", i(s.eng.maxConnected.Load())},
		{"Queries", u(questions.Load())},
		{"Questions", u(questions.Load())},
		{"Strata_bulk_loads", u(s.eng.bulkLoads.Load())},
		{"Strata_bulk_load_rows", u(s.eng.bulkLoadRows.Load())},
		{"Strata_plan_cache_hits", u(s.eng.plans.hits.Load())},
		{"Strata_plan_cache_misses", u(s.eng.plans.misses.Load())},
		{"Strata_plan_cache_normalized", u(s.eng.normalized.Load())},
		{"Strata_plan_cache_plans", strconv.Itoa(planCount(&s.eng.plans))},
		{"Threads_connected", i(s.eng.connected.Load())},
		{"Threads_running", strconv.Itoa(s.eng.running())},
		{"Uptime", i(uptime)},
	}...)
	// MySQL lists them by name.
	sort.Slice(rows, func(a, b int) bool { return strings.ToLower(rows[a][0]) < strings.ToLower(rows[b][0]) })
	return rows
}

// storageStatus reports the storage engine's counters (kv.Stats) as
// Strata_* status variables; they are server-wide, so SESSION and GLOBAL
// show the same values.
func (s *Session) storageStatus() [][]string {
	st := s.eng.DB.KV().Stats()
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	return [][]string{
		{"Strata_block_cache_hits", i(st.BlockCacheHits)},
		{"Strata_block_cache_misses", i(st.BlockCacheMisses)},
		{"Strata_commits", u(s.eng.DB.Commits())},
		{"Strata_compaction_bytes_written", u(st.BytesCompacted)},
		{"Strata_compactions", i(st.Compactions)},
		{"Strata_flush_bytes_written", u(st.BytesFlushed)},
		{"Strata_flushes", i(st.Flushes)},
		{"Strata_flushes_read_triggered", i(s.eng.DB.ReadTriggeredFlushes())},
		{"Strata_l0_files", i(st.L0Files)},
		{"Strata_memtable_bytes", u(st.MemTableBytes)},
	}
}

// showTarget resolves the table of SHOW COLUMNS/INDEX.
func (s *Session) showTarget(ctx context.Context, tn sqlparser.TableName, dbName sqlparser.IdentifierCS) (*catalog.Table, error) {
	db := dbName.String()
	if db == "" {
		db = tn.Qualifier.String()
	}
	if db == "" {
		db = s.DB
	}
	if db == "" {
		return nil, sqlerr.NoDB()
	}
	if isSystemSchema(db) {
		def, _, err := s.systemTable(db, tn.Name.String())
		return def, err
	}
	t := s.tableDef(db, tn.Name.String())
	if t == nil {
		if v := s.eng.Cat.View(db, tn.Name.String()); v != nil {
			return s.viewTable(ctx, v)
		}
		return nil, sqlerr.NoTable(db, tn.Name.String())
	}
	return t, nil
}

// tablesOf lists the tables of a database (system schemas included) the
// session may see.
func (s *Session) tablesOf(db string) []*catalog.Table {
	all := s.eng.Cat.Tables(db)
	if isSystemSchema(db) {
		all = vtable.Tables(db)
	}
	out := all[:0:0]
	for _, t := range all {
		if s.canSeeTable(db, t.Name) {
			out = append(out, t)
		}
	}
	return out
}

func (s *Session) showColumns(t *catalog.Table, full bool, like string) *sqltypes.Result {
	names := []string{"Field", "Type", "Null", "Key", "Default", "Extra"}
	if full {
		names = []string{"Field", "Type", "Collation", "Null", "Key", "Default", "Extra", "Privileges", "Comment"}
	}
	var rows [][]string
	sub := s.subject()
	for i := range t.Columns {
		c := &t.Columns[i]
		if like != "" && !likeMatch(like, c.Name) {
			continue
		}
		privs, visible := sub.ColumnPrivText(t.DB, t.Name, c.Name)
		if !visible && !isSystemSchema(t.DB) {
			// MySQL lists only the columns the account holds some
			// privilege on.
			continue
		}
		null := "YES"
		if !c.Nullable {
			null = "NO"
		}
		def := nullStr
		switch {
		case c.DefaultExpr != "":
			def = c.DefaultExpr
		case c.HasDefault && !c.Default.IsNull():
			def = s.constDefault(c).ToString()
		}
		extra := ""
		if c.AutoIncrement {
			extra = "auto_increment"
		}
		if c.DefaultExpr != "" && strings.Contains(strings.ToUpper(c.DefaultExpr), "CURRENT_TIMESTAMP") {
			extra = "DEFAULT_GENERATED"
		}
		if c.OnUpdateExpr != "" {
			if extra != "" {
				extra += " "
			}
			extra += "on update " + c.OnUpdateExpr
		}
		if g := vtable.GeneratedExtra(c); g != "" {
			extra = g
		}
		r := []string{c.Name, coltype.FormatType(c)}
		if full {
			coll := nullStr
			if c.IsText() || c.Type == sqltypes.Enum || c.Type == sqltypes.Set {
				coll = coltype.CollationName(c.Collation)
			}
			r = append(r, coll)
		}
		r = append(r, null, vtable.ColumnKey(t, i), def, extra)
		if full {
			r = append(r, privs, c.Comment)
		}
		rows = append(rows, r)
	}
	return textResult(names, rows)
}

func (s *Session) showIndex(t *catalog.Table) *sqltypes.Result {
	names := []string{"Table", "Non_unique", "Key_name", "Seq_in_index", "Column_name", "Collation", "Cardinality", "Sub_part", "Packed", "Null", "Index_type", "Comment", "Index_comment", "Visible", "Expression"}
	var rows [][]string
	for k, ix := range t.Indexes {
		if k == 0 && t.HiddenPK {
			continue
		}
		nonUnique := "1"
		if ix.Unique {
			nonUnique = "0"
		}
		for i, ic := range ix.Columns {
			c := &t.Columns[ic.Col]
			coll := "A"
			if ic.Desc {
				coll = "D"
			}
			sub := nullStr
			if ic.Prefix > 0 {
				sub = strconv.Itoa(ic.Prefix)
			}
			null := ""
			if c.Nullable {
				null = "YES"
			}
			rows = append(rows, []string{t.Name, nonUnique, ix.Name, strconv.Itoa(i + 1), c.Name, coll, s.cardinalityText(t, ix, i+1), sub, nullStr, null, "BTREE", "", ix.Comment, "YES", nullStr})
		}
	}
	return textResult(names, rows)
}

func (s *Session) showCreate(ctx context.Context, sh *sqlparser.ShowCreate) (*sqltypes.Result, error) {
	switch sh.Command {
	case sqlparser.CreateV:
		return s.showCreateViewStmt(sh.Op)
	case sqlparser.CreateTbl:
		if v := s.lookupView(sh.Op); v != nil {
			return s.showCreateView(v), nil
		}
		t, err := s.showTarget(ctx, sh.Op, sqlparser.IdentifierCS{})
		if err != nil {
			return nil, err
		}
		var ai uint64
		if t.AutoIncCol >= 0 && !isSystemSchema(t.DB) {
			tx := s.eng.DB.Begin(ctx, s.iso, s.lockTimeout)
			ai, _ = s.eng.Store.Open(t).PeekAutoInc(tx)
			tx.Rollback()
			if ai <= 1 {
				ai = 0
			}
		}
		text := coltype.ShowCreateTable(s.defaultsInZone(t), ai)
		if s.isTemporary(t) {
			text = showCreateTemporary(text)
		}
		return textResult([]string{"Table", "Create Table"}, [][]string{{t.Name, text}}), nil
	case sqlparser.CreateDb:
		name := sh.Op.Name.String()
		d := s.eng.Cat.Database(name)
		if d == nil {
			return nil, sqlerr.New(sqlerror.ERBadDb, sqlerror.SSClientError, "Unknown database '%s'", name)
		}
		coll := coltype.CollationName(d.Collation)
		return textResult([]string{"Database", "Create Database"}, [][]string{{name,
			fmt.Sprintf("CREATE DATABASE %s /*!40100 DEFAULT CHARACTER SET %s COLLATE %s */ /*!80016 DEFAULT ENCRYPTION='N' */", coltype.QuoteIdent(name), d.Charset, coll)}}), nil
	case sqlparser.CreateTr:
		return s.showCreateTrigger(sh.Op)
	case sqlparser.CreateProc:
		return s.showCreateRoutine("PROCEDURE", sh.Op)
	case sqlparser.CreateF:
		return s.showCreateRoutine("FUNCTION", sh.Op)
	}
	return nil, sqlerr.Unsupported("this SHOW CREATE statement")
}

// showCreateDatabaseIfNotExists answers SHOW CREATE DATABASE IF NOT EXISTS
// name as MySQL does: SHOW CREATE DATABASE's row with the statement's IF
// NOT EXISTS kept as /*!32312 IF NOT EXISTS*/. It runs as the statement
// without IF NOT EXISTS (same privilege check, counter and errors).
func (s *Session) showCreateDatabaseIfNotExists(ctx context.Context, name string) (*sqltypes.Result, error) {
	res, err := s.queryOnce(ctx, "SHOW CREATE DATABASE "+name)
	if err != nil {
		return nil, err
	}
	if len(res.Rows) == 1 && len(res.Rows[0]) == 2 {
		text := res.Rows[0][1].ToString()
		if rest, ok := strings.CutPrefix(text, "CREATE DATABASE "); ok {
			res.Rows[0][1] = sqltypes.NewVarChar("CREATE DATABASE /*!32312 IF NOT EXISTS*/ " + rest)
		}
	}
	return res, nil
}

func (s *Session) showTableStatus(ctx context.Context, db, like string) (*sqltypes.Result, error) {
	names := []string{"Name", "Engine", "Version", "Row_format", "Rows", "Avg_row_length", "Data_length", "Max_data_length", "Index_length", "Data_free", "Auto_increment", "Create_time", "Update_time", "Check_time", "Collation", "Checksum", "Create_options", "Comment"}
	var rows [][]string
	for _, t := range s.tablesOf(db) {
		if like != "" && !likeMatch(like, t.Name) {
			continue
		}
		ai, nrows := nullStr, "0"
		if !isSystemSchema(db) {
			nrows = strconv.FormatUint(s.tableRows(t), 10)
		}
		if t.AutoIncCol >= 0 && !isSystemSchema(db) {
			tx := s.eng.DB.Begin(ctx, s.iso, s.lockTimeout)
			if v, err := s.eng.Store.Open(t).PeekAutoInc(tx); err == nil {
				ai = strconv.FormatUint(v, 10)
			}
			tx.Rollback()
		}
		rows = append(rows, []string{t.Name, "InnoDB", "10", "Dynamic", nrows, "0", "0", "0", "0", "0", ai, unixTime(t.CreateTime), nullStr, nullStr, coltype.CollationName(t.Collation), nullStr, "", t.Comment})
	}
	rows = s.addViewStatusRows(rows, db, like)
	return textResult(names, rows), nil
}
