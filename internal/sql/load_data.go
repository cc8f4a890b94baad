package sql

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/charset"
	"vitess.io/vitess/go/mysql/collations/colldata"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/loaddata"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// LOAD DATA [LOCAL] INFILE (MySQL 8.0). The statement is read by
// parse.ParseLoadData, its file by a loaddata.Reader (bytes → fields per
// row, with row numbers), the fields become table rows in loadRows
// (load_rows.go: store assignment, @variables, SET, defaults), and runLoad
// writes each as INSERT writes a row (rowBuilder and insertRow: triggers,
// CHECK constraints and generated columns, foreign keys, auto-increment,
// REPLACE and IGNORE), inside the statement's transaction, so a failed
// load leaves nothing behind.
//
// Per row: the file's fields go to the listed columns (all columns in
// order without a list) through store assignment, or to @variables as
// strings; SET assignments follow, reading the row's columns and the
// row's @variables; then the row is finished and written. A row with too
// few fields gives the missing columns their type's implicit default
// (NULL when the column's default is NULL) with 1261, a row with too many 1262, a NULL field in a NOT
// NULL column its implicit default with 1263, a bad value 1366/1292/1264.
// In strict mode those are errors that fail the statement, unless IGNORE
// or LOCAL is given (MySQL: with LOCAL the server cannot stop the client's
// transfer, so data and duplicate-key errors are warnings, as with
// IGNORE, unless REPLACE is given).
//
// Files: a server file needs the FILE privilege and must be inside
// secure_file_priv (1290); a relative name is relative to the data
// directory, as SELECT ... INTO OUTFILE's (MySQL: the default database's
// directory for a bare name). LOCAL asks the client for the file through
// the protocol (LocalFiles); local_infile (default ON) and the client's
// CLIENT_LOCAL_FILES capability must both allow it (3948).

// LocalFiles reads the client's files for LOAD DATA LOCAL: the protocol
// layer sends the client the request for name and returns a reader of
// what the client sends back. Close must leave the protocol in step (read
// whatever the client still sends) whether or not the reader reached its
// end.
type LocalFiles interface {
	OpenLocalFile(name string) (io.ReadCloser, error)
}

// loadState is the session's LOAD DATA state.
type loadState struct {
	// files reads LOCAL files (nil: the connection cannot); clientAllows
	// is the client's CLIENT_LOCAL_FILES capability.
	files        LocalFiles
	clientAllows bool
	// progress is the running load, read by PROCESSLIST from other
	// sessions' goroutines.
	progress atomic.Pointer[loadProgress]
}

// loadProgress is what PROCESSLIST shows of a running load.
type loadProgress struct {
	rd   *loaddata.Reader
	size int64 // the file's size, 0 when unknown (LOCAL)
}

// state is the PROCESSLIST state of the load.
func (p *loadProgress) state() string {
	n := p.rd.BytesRead()
	if p.size > 0 {
		return fmt.Sprintf("Loading data (%.1f%% of %d bytes)", float64(n)*100/float64(p.size), p.size)
	}
	return fmt.Sprintf("Loading data (%d bytes read)", n)
}

// SetLocalFiles gives the session the reader of the client's files and
// whether the client announced CLIENT_LOCAL_FILES.
func (s *Session) SetLocalFiles(f LocalFiles, clientAllows bool) {
	s.load.files, s.load.clientAllows = f, clientAllows
}

// loadStatement runs a LOAD DATA statement (specialStatement); handled is
// false for any other statement.
func (s *Session) loadStatement(ctx context.Context, sql string) (*sqltypes.Result, bool, error) {
	if !parse.IsLoadData(sql) {
		return nil, false, nil
	}
	s.beginStatementWarnings(nil)
	s.countCom(comLoad)
	ld, err := parse.ParseLoadData(sql, s.sqlMode.noBackslashEscapes)
	if err != nil {
		var se *parse.LoadDataSyntaxError
		if errors.As(err, &se) {
			return nil, true, sqlerr.Syntax(fmt.Sprintf("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s' at line 1", se.Near))
		}
		return nil, true, sqlerr.Unsupported("%v", err)
	}
	res, err := s.execLoadData(ctx, ld)
	return res, true, err
}

// loadPlan is a LOAD DATA statement resolved against its table.
type loadPlan struct {
	ld     *parse.LoadData
	t      *catalog.Table
	format loaddata.Format
	// targets: per field, the column it goes to, or -1-k for @variable k.
	targets []int
	vars    []string
	// set: the SET assignments, compiled over the row and the variables
	// (nil expression: DEFAULT).
	setCols  []int
	setExprs []*eval.Expr
	names    []string
	// cs is the file's character set when its text must be converted to
	// UTF-8 (nil: none).
	cs charset.Charset
	// replace and ignore: duplicate-key and data-error handling.
	replace, ignore bool
}

func (s *Session) execLoadData(ctx context.Context, ld *parse.LoadData) (*sqltypes.Result, error) {
	if len(ld.Partitions) > 0 {
		return nil, sqlerr.Unsupported("LOAD DATA ... PARTITION")
	}
	db, err := s.schemaOrCurrent(ld.Schema)
	if err != nil {
		return nil, err
	}
	if isSystemSchema(db) {
		return nil, sqlerr.New(sqlerr.DBAccessDenied, sqlerror.SSClientError, "Access denied for user '%s'@'%s' to database '%s'", s.User, s.Host, db)
	}
	// MySQL 8.0's order: LOCAL's switches, then FILE (a server file), then
	// the table (INSERT; REPLACE: and DELETE).
	if ld.Local && (!s.load.clientAllows || s.load.files == nil || !s.localInfileOn()) {
		return nil, sqlerr.New(sqlerr.ClientLocalFilesDisabled, sqlerror.SSClientError, "Loading local data is disabled; this must be enabled on both the client and server sides")
	}
	var needs []privilege.Need
	if !ld.Local {
		needs = append(needs, privilege.RuleFor(privilege.KindSelectIntoFile).Need("", ""))
	}
	tableNeed := privilege.RuleFor(privilege.KindLoadData).Need(db, ld.Table)
	if ld.Replace {
		tableNeed.Privs |= privilege.Delete
	}
	needs = append(needs, tableNeed)
	if err := s.authorizeNeeds(needs...); err != nil {
		return nil, err
	}
	if s.tempTable(db, ld.Table) == nil && s.eng.Cat.View(db, ld.Table) != nil {
		return nil, sqlerr.Unsupported("LOAD DATA into a view")
	}
	t := s.tableDef(db, ld.Table)
	if t == nil {
		return nil, sqlerr.NoTable(db, ld.Table)
	}
	p := &loadPlan{ld: ld, t: t, replace: ld.Replace, ignore: ld.Ignore || (ld.Local && !ld.Replace)}
	if err := s.loadFormat(p); err != nil {
		return nil, err
	}
	if err := s.loadTargets(p); err != nil {
		return nil, err
	}
	// The file: LOCAL from the client, else from the server's disk.
	var r io.ReadCloser
	var size int64
	if ld.Local {
		f, err := s.load.files.OpenLocalFile(ld.File)
		if err != nil {
			return nil, fmt.Errorf("LOAD DATA LOCAL %s: %w", ld.File, err)
		}
		r = f
	} else {
		f, n, err := s.openLoadFile(ld.File)
		if err != nil {
			return nil, err
		}
		r, size = f, n
	}
	var res *sqltypes.Result
	err = func() error {
		defer func() { _ = r.Close() }() // LOCAL: drains the client's packets
		var err error
		res, err = s.dmlOf(ctx, nil, nil, func(ex *execCtx) (*sqltypes.Result, error) {
			return s.runLoad(ex, p, r, size)
		})
		return err
	}()
	if err != nil {
		return nil, err
	}
	return res, nil
}

// localInfileOn reads the local_infile system variable.
func (s *Session) localInfileOn() bool {
	v, _ := s.sysVar("local_infile")
	switch strings.ToUpper(v.ToString()) {
	case "0", "OFF":
		return false
	}
	return true
}

// loadFormat builds the reader's format from the FIELDS and LINES options
// and the file's character set.
func (s *Session) loadFormat(p *loadPlan) error {
	ld := p.ld
	f := loaddata.DefaultFormat
	if ld.FieldsTerm != nil {
		f.FieldTerm = *ld.FieldsTerm
	}
	if ld.LinesTerm != nil {
		f.LineTerm = *ld.LinesTerm
	}
	if ld.LinesStart != nil {
		f.LineStart = *ld.LinesStart
	}
	if ld.Enclosed != nil && len(*ld.Enclosed) > 1 || ld.Escaped != nil && len(*ld.Escaped) > 1 {
		return sqlerr.New(sqlerror.ERWrongFieldTerminators, sqlerror.SSUnknownSQLState, "Field separator argument is not what is expected; check the manual")
	}
	if ld.Enclosed != nil && *ld.Enclosed != "" {
		f.Enclosed = int((*ld.Enclosed)[0])
	}
	switch {
	case ld.Escaped != nil && *ld.Escaped == "":
		f.Escape = -1
	case ld.Escaped != nil:
		f.Escape = int((*ld.Escaped)[0])
	case s.sqlMode.noBackslashEscapes:
		// MySQL: no default escape character under NO_BACKSLASH_ESCAPES.
		f.Escape = -1
	}
	if f.FieldTerm == "" && f.Enclosed < 0 {
		return sqlerr.Unsupported("LOAD DATA with fixed-width fields (empty FIELDS TERMINATED BY and ENCLOSED BY)")
	}
	p.format = f
	name := ld.Charset
	if name == "" {
		v, _ := s.sysVar("character_set_database")
		name = v.ToString()
	}
	name = strings.ToLower(name)
	switch name {
	case "utf8mb4", "utf8", "utf8mb3", "binary", "ascii", "":
		return nil
	}
	coll := collations.MySQL8().DefaultCollationForCharset(name)
	if coll == collations.Unknown {
		return sqlerr.New(sqlerror.ERUnknownCharacterSet, sqlerror.SSClientError, "Unknown character set: '%s'", ld.Charset)
	}
	cd := colldata.Lookup(coll)
	if cd == nil || cd.Charset().MaxWidth() != 1 {
		return sqlerr.Unsupported("LOAD DATA ... CHARACTER SET %s", name)
	}
	p.cs = cd.Charset()
	return nil
}

// loadTargets resolves the column list and compiles the SET assignments.
func (s *Session) loadTargets(p *loadPlan) error {
	t := p.t
	seen := map[int]bool{}
	if p.ld.Targets == nil {
		for i := range t.Columns {
			p.targets = append(p.targets, i)
			seen[i] = true
		}
	}
	for _, tg := range p.ld.Targets {
		if tg.Var {
			p.targets = append(p.targets, -1-len(p.vars))
			p.vars = append(p.vars, strings.ToLower(tg.Name))
			continue
		}
		i := t.ColumnIndex(tg.Name)
		if i < 0 {
			return sqlerr.BadField(tg.Name, "field list")
		}
		if seen[i] {
			return sqlerr.New(sqlerror.ERFieldSpecifiedTwice, sqlerror.SSClientError, "Column '%s' specified twice", tg.Name)
		}
		if err := s.refuseGeneratedValue(t, i, nil); err != nil {
			return err
		}
		seen[i] = true
		p.targets = append(p.targets, i)
	}
	if len(p.ld.Set) == 0 {
		return nil
	}
	// SET expressions see the row's columns at [0, n) and the row's
	// @variables at [n, n+len(vars)).
	sc := &eval.Scope{}
	sc.AddTable(t, t.Name)
	sc.OffsetTypes = map[string]evalengine.Type{}
	n := len(t.Columns)
	varType := evalengine.NewTypeEx(sqltypes.VarChar, collations.CollationUtf8mb4ID, true, 0, 0, nil)
	c := s.newCompiler(nil, sc, &p.names, nil)
	for _, as := range p.ld.Set {
		ci := t.ColumnIndex(as.Column)
		if ci < 0 {
			return sqlerr.BadField(as.Column, "field list")
		}
		if seen[ci] {
			return sqlerr.New(sqlerror.ERFieldSpecifiedTwice, sqlerror.SSClientError, "Column '%s' specified twice", as.Column)
		}
		seen[ci] = true
		if strings.EqualFold(strings.TrimSpace(as.Expr), "DEFAULT") {
			p.setCols, p.setExprs = append(p.setCols, ci), append(p.setExprs, nil)
			continue
		}
		e, err := s.eng.Parser.ParseExpr(as.Expr)
		if err != nil {
			return parseErr(err)
		}
		if err := s.refuseGeneratedValue(t, ci, e); err != nil {
			return err
		}
		e = sqlparser.Rewrite(e, nil, func(cur *sqlparser.Cursor) bool {
			v, ok := cur.Node().(*sqlparser.Variable)
			if !ok || v.Scope != sqlparser.VariableScope {
				return true
			}
			for k, name := range p.vars {
				if name == v.Name.Lowered() {
					off := &sqlparser.Offset{V: n + k, Original: v}
					sc.OffsetTypes[sqlparser.String(v)] = varType
					sc.OffsetTypes[sqlparser.String(off)] = varType
					cur.Replace(off)
					break
				}
			}
			return true
		}).(sqlparser.Expr)
		x, err := c.Compile(e)
		if err != nil {
			return err
		}
		p.setCols, p.setExprs = append(p.setCols, ci), append(p.setExprs, x)
	}
	return nil
}

// openLoadFile opens a server file for LOAD DATA: inside secure_file_priv
// (1290), a regular file or a FIFO (1085), else MySQL's error 29.
func (s *Session) openLoadFile(name string) (*os.File, int64, error) {
	path, err := s.securePath(name)
	if err != nil {
		var se *sqlerror.SQLError
		if errors.As(err, &se) && se.Num == sqlerr.SecureFilePriv {
			return nil, 0, err
		}
		return nil, 0, fileErr(sqlerr.FileNotFound, "File '%s' not found (OS errno %d - %s)", name, err)
	}
	// MySQL 8.0: stat first (EE_STAT), a regular file or a FIFO only,
	// then open (EE_FILENOTFOUND).
	fi, err := os.Stat(path)
	if err != nil {
		return nil, 0, fileErr(sqlerr.CantGetStat, "Can't get stat of '%s' (OS errno %d - %s)", path, err)
	}
	if !fi.Mode().IsRegular() && fi.Mode()&fs.ModeNamedPipe == 0 {
		return nil, 0, sqlerr.New(sqlerror.ERTextFileNotReadable, sqlerror.SSUnknownSQLState, "The file '%s' must be in the database directory or be readable by all", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fileErr(sqlerr.FileNotFound, "File '%s' not found (OS errno %d - %s)", path, err)
	}
	return f, fi.Size(), nil
}

// fileErr is MySQL 8.0's error for a file LOAD DATA cannot stat or open
// (or SELECT ... INTO OUTFILE cannot create): format names the path, the OS
// errno and its text.
func fileErr(code sqlerror.ErrorCode, format, path string, err error) error {
	errno := 0
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
		var en syscall.Errno
		if errors.As(pe.Err, &en) {
			errno = int(en)
			msg = strings.ToUpper(msg[:1]) + msg[1:]
		}
	}
	return sqlerr.New(code, sqlerror.SSUnknownSQLState, format, path, errno, msg)
}

// runLoad reads the rows of r (loadRows) and writes each as INSERT does:
// BEFORE triggers, the NOT NULL rules, CHECK constraints and generated
// columns, auto-increment, then insertRow (duplicates per REPLACE or
// IGNORE, foreign keys, AFTER triggers).
func (s *Session) runLoad(ex *execCtx, p *loadPlan, r io.Reader, size int64) (*sqltypes.Result, error) {
	t := p.t
	bulk, release, err := s.loadBulk(ex, p, size)
	if err != nil {
		return nil, err
	}
	if bulk != nil {
		defer release()
		defer bulk.Close()
	} else if err := s.useTable(ex.Context(), t, true); err != nil {
		return nil, err
	}
	tbl := s.eng.Store.Open(t)
	b := &rowBuilder{s: s, ex: ex, t: t, tbl: tbl, strict: s.strict(), ignore: p.ignore, now: time.Now()}
	lr := s.newLoadRows(ex, p, b, r)
	defer lr.close()
	s.load.progress.Store(&loadProgress{rd: lr.rd, size: size})
	defer s.load.progress.Store(nil)
	checks, err := s.compileChecks(t)
	if err != nil {
		return nil, err
	}
	if lr.enc, err = s.loadEncoder(p, bulk, checks, b, tbl); err != nil {
		return nil, err
	}
	if ok, err := lr.skip(); err != nil || !ok {
		return loadResult(s, 0, 0, 0, insertIDs{}), err
	}
	tt := s.trgFor(t)
	var records, copied, deleted uint64
	var ids insertIDs
	var keyBuf []byte
	for {
		row, enc, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		records++
		if enc != nil {
			// Converted and encoded on a worker (load_parallel.go).
			if err := bulk.AddEncoded(enc); err != nil {
				return nil, err
			}
			copied++
			continue
		}
		if tt != nil && len(tt.progs[trgBefore+trgInsert]) > 0 {
			if err := s.fire(ex, tt, trgBefore+trgInsert, nil, row); err != nil {
				return nil, err
			}
		}
		if err := lr.notNull(row); err != nil {
			return nil, err
		}
		if err := b.checkNulls(row, lr.given, lr.rowNum, true); err != nil {
			return nil, err
		}
		if ok, err := s.checkRow(ex, checks, row, p.ignore); !ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		gen, explicit, err := b.assignAutoInc(ex.tx, row)
		if err != nil {
			return nil, err
		}
		ids.note(gen, explicit)
		var affected uint64
		if bulk != nil {
			// TIMESTAMP values are stored in UTC (timezone.go).
			if err := bulk.Add(s.toStore(tbl, row)); err != nil {
				return nil, err
			}
			affected = 1
		} else if affected, err = s.insertRow(ex, tbl, row, p.replace, p.ignore, nil, keyBuf); err != nil {
			return nil, err
		}
		if affected > 0 {
			copied++
			deleted += affected - 1
		}
		if err := lr.endRow(); err != nil {
			return nil, err
		}
	}
	if bulk != nil {
		if err := finishBulk(bulk); err != nil {
			return nil, err
		}
		copied -= uint64(bulk.Skipped())
		s.eng.bulkLoads.Add(1)
		s.eng.bulkLoadRows.Add(copied)
	}
	lr.setVars()
	return loadResult(s, records, copied, deleted, ids), nil
}

// loadResult is the OK packet of a load: affected rows as MySQL counts
// them (a replaced row is 2) and its info string.
func loadResult(s *Session, records, copied, deleted uint64, ids insertIDs) *sqltypes.Result {
	res := &sqltypes.Result{RowsAffected: copied + deleted}
	ids.set(s, res)
	res.Info = fmt.Sprintf("Records: %d  Deleted: %d  Skipped: %d  Warnings: %d", records, deleted, records-copied, len(s.warnings))
	return res
}

// loadReadErr turns an error reading the file into the client's error:
// the protocol's for a LOCAL transfer, MySQL's EE_READ for a server file.
func loadReadErr(err error, p *loadPlan) error {
	var se *sqlerror.SQLError
	if errors.As(err, &se) {
		return se
	}
	if errors.Is(err, loaddata.ErrRowTooLong) {
		return sqlerr.New(sqlerror.ERNetPacketTooLarge, sqlerror.SSNetError, "Got a packet bigger than 'max_allowed_packet' bytes")
	}
	if p.ld.Local {
		return sqlerr.New(sqlerr.NetReadError, sqlerror.SSNetError, "Got an error reading communication packets")
	}
	return sqlerr.New(sqlerr.ErrorOnRead, sqlerror.SSUnknownSQLState, "Error reading file '%s' (%v)", p.ld.File, err)
}
