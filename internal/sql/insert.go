package sql

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/encoding"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/third_party/evalengine"
	"github.com/strata-db/strata/internal/txn"
)

// literalValue evaluates literals and bind variables without evalengine
// (the bulk INSERT fast path).
func literalValue(e sqlparser.Expr, bv map[string]*querypb.BindVariable) (sqltypes.Value, bool) {
	switch x := e.(type) {
	case *sqlparser.NullVal:
		return sqltypes.NULL, true
	case *sqlparser.Literal:
		switch x.Type {
		case sqlparser.StrVal:
			return sqltypes.MakeTrusted(sqltypes.VarChar, []byte(x.Val)), true
		case sqlparser.IntVal:
			if _, err := strconv.ParseInt(x.Val, 10, 64); err == nil {
				return sqltypes.MakeTrusted(sqltypes.Int64, []byte(x.Val)), true
			}
			if _, err := strconv.ParseUint(x.Val, 10, 64); err == nil {
				return sqltypes.MakeTrusted(sqltypes.Uint64, []byte(x.Val)), true
			}
			return sqltypes.MakeTrusted(sqltypes.Decimal, []byte(x.Val)), true
		case sqlparser.DecimalVal:
			return sqltypes.MakeTrusted(sqltypes.Decimal, []byte(x.Val)), true
		case sqlparser.FloatVal:
			return sqltypes.MakeTrusted(sqltypes.Float64, []byte(x.Val)), true
		}
	case *sqlparser.Argument:
		if b, ok := bv[x.Name]; ok {
			v, err := sqltypes.BindVariableToValue(b)
			if err == nil {
				return v, true
			}
		}
	case *sqlparser.UnaryExpr:
		if x.Operator == sqlparser.UMinusOp {
			if lit, ok := x.Expr.(*sqlparser.Literal); ok && (lit.Type == sqlparser.IntVal || lit.Type == sqlparser.DecimalVal || lit.Type == sqlparser.FloatVal) {
				v, ok := literalValue(lit, bv)
				if !ok {
					return v, false
				}
				t := v.Type()
				if t == sqltypes.Uint64 {
					t = sqltypes.Decimal
				}
				return sqltypes.MakeTrusted(t, append([]byte{'-'}, v.Raw()...)), true
			}
		}
	}
	return sqltypes.NULL, false
}

// targetTable resolves the table of an INSERT/UPDATE/DELETE (write: the
// statement writes it, as opposed to EXPLAIN).
func (s *Session) targetTable(ex *execCtx, te sqlparser.TableExpr, write bool) (*catalog.Table, string, error) {
	ate, ok := te.(*sqlparser.AliasedTableExpr)
	if !ok {
		return nil, "", sqlerr.Unsupported("multi-table statements")
	}
	tn, ok := ate.Expr.(sqlparser.TableName)
	if !ok {
		return nil, "", sqlerr.Unsupported("%s", sqlparser.String(te))
	}
	db := tn.Qualifier.String()
	if db == "" {
		db = s.DB
	}
	if db == "" {
		return nil, "", sqlerr.NoDB()
	}
	if isSystemSchema(db) {
		return nil, "", sqlerr.New(sqlerr.DBAccessDenied, sqlerror.SSClientError, "Access denied for user '%s'@'%s' to database '%s'", s.User, s.Host, db)
	}
	t := s.tableDef(db, tn.Name.String())
	if t == nil {
		return nil, "", sqlerr.NoTable(db, tn.Name.String())
	}
	if err := s.useTable(ex.Context(), t, write); err != nil {
		return nil, "", err
	}
	alias := tn.Name.String()
	if !ate.As.IsEmpty() {
		alias = ate.As.String()
	}
	return t, alias, nil
}

// rowBuilder fills rows for INSERT/REPLACE.
type rowBuilder struct {
	s        *Session
	ex       *execCtx
	t        *catalog.Table
	tbl      *table.Table
	cols     []int // target column ordinals in statement order
	set      []bool
	strict   bool
	ignore   bool
	now      time.Time
	compiled map[sqlparser.Expr]*eval.Expr
	c        *compiler
}

// valueFor evaluates an INSERT value expression.
func (b *rowBuilder) valueFor(e sqlparser.Expr, col int) (sqltypes.Value, error) {
	if _, ok := e.(*sqlparser.Default); ok {
		return b.defaultValue(col)
	}
	if v, ok := literalValue(e, b.ex.BV); ok {
		return v, nil
	}
	x := b.compiled[e]
	if x == nil {
		var err error
		x, err = b.c.Compile(e)
		if err != nil {
			return sqltypes.NULL, err
		}
		b.compiled[e] = x
		b.ex.BV = b.s.bindSessionVars(*b.c.Names, b.ex.BV)
		b.ex.Env.BindVars = b.ex.BV
	}
	return b.ex.Eval(x, nil)
}

// defaultValue is the value of column col when the statement gives none.
func (b *rowBuilder) defaultValue(col int) (sqltypes.Value, error) {
	c := &b.t.Columns[col]
	if c.DefaultExpr != "" {
		return b.s.evalDefaultExpr(b.ex, c, b.now)
	}
	if c.HasDefault {
		return b.s.constDefault(c), nil
	}
	return sqltypes.NULL, nil
}

// evalDefaultExpr evaluates a non-literal default such as CURRENT_TIMESTAMP.
func (s *Session) evalDefaultExpr(ex *execCtx, c *catalog.Column, now time.Time) (sqltypes.Value, error) {
	e, err := s.eng.Parser.ParseExpr(c.DefaultExpr)
	if err != nil {
		return sqltypes.NULL, fmt.Errorf("default of %s: %w", c.Name, err)
	}
	cc := s.newCompiler(nil, &eval.Scope{}, nil, nil)
	x, err := cc.Compile(e)
	if err != nil {
		return sqltypes.NULL, err
	}
	v, err := ex.Eval(x, nil)
	if err != nil {
		return sqltypes.NULL, err
	}
	out, _, err := coltype.ConvertIn(c, v, false, 1, s.zoneOf(c))
	return out, err
}

// finishRow applies defaults, NOT NULL rules and auto-increment to a row
// whose given columns are set. rowNum is 1-based for messages.
func (b *rowBuilder) finishRow(row Row, given []bool, rowNum int, multi bool) error {
	if err := b.fillDefaults(row, given, false); err != nil {
		return err
	}
	return b.checkNulls(row, given, rowNum, multi)
}

// fillDefaults gives the columns the statement does not set their
// defaults. With deferNull a NOT NULL column without a default stays NULL
// for checkNulls to refuse after the BEFORE INSERT triggers (which may set
// it, as MySQL allows).
func (b *rowBuilder) fillDefaults(row Row, given []bool, deferNull bool) error {
	t := b.t
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.Generated != "" {
			// Computed with the CHECK constraints (generated.go).
			row[i] = sqltypes.NULL
			continue
		}
		if !given[i] {
			if i == t.AutoIncCol {
				row[i] = sqltypes.NULL
				continue
			}
			if !c.HasDefault && c.DefaultExpr == "" && !c.Nullable {
				if deferNull {
					row[i] = sqltypes.NULL
					continue
				}
				if err := b.noDefault(row, i); err != nil {
					return err
				}
				continue
			}
			v, err := b.defaultValue(i)
			if err != nil {
				return err
			}
			row[i] = v
		}
	}
	return nil
}

// noDefault answers a NOT NULL column without a default that the row
// leaves unset: 1364 in strict mode, else a warning and the type's
// implicit default.
func (b *rowBuilder) noDefault(row Row, i int) error {
	c := &b.t.Columns[i]
	if b.strict && !b.ignore {
		return sqlerr.New(sqlerror.ERNoDefaultForField, sqlerror.SSUnknownSQLState, "Field '%s' doesn't have a default value", c.Name)
	}
	b.s.warn("Warning", uint16(sqlerror.ERNoDefaultForField), fmt.Sprintf("Field '%s' doesn't have a default value", c.Name))
	row[i] = coltype.ImplicitDefault(c)
	return nil
}

// checkNulls applies the NOT NULL rules to a row about to be written.
func (b *rowBuilder) checkNulls(row Row, given []bool, rowNum int, multi bool) error {
	t := b.t
	for i := range t.Columns {
		c := &t.Columns[i]
		if !given[i] && row[i].IsNull() && !c.Nullable && i != t.AutoIncCol && c.Generated == "" && !c.HasDefault && c.DefaultExpr == "" {
			if err := b.noDefault(row, i); err != nil { // left unset by a trigger too
				return err
			}
		}
	}
	return b.checkNullsGiven(row, given, rowNum, multi)
}

// checkNullsGiven refuses NULL in a NOT NULL column (1048; a warning and
// the implicit default outside strict mode for a multi-row statement).
func (b *rowBuilder) checkNullsGiven(row Row, given []bool, rowNum int, multi bool) error {
	t := b.t
	for i := range t.Columns {
		c := &t.Columns[i]
		if row[i].IsNull() && !c.Nullable && i != t.AutoIncCol && c.Generated == "" {
			if c.Type == sqltypes.Timestamp && given[i] && c.DefaultExpr != "" {
				v, err := b.s.evalDefaultExpr(b.ex, c, b.now)
				if err != nil {
					return err
				}
				row[i] = v
				continue
			}
			if (b.strict || !multi) && !b.ignore {
				return sqlerr.New(sqlerror.ERBadNullError, sqlerror.SSConstraintViolation, "Column '%s' cannot be null", c.Name)
			}
			b.s.warn("Warning", uint16(sqlerror.ERBadNullError), fmt.Sprintf("Column '%s' cannot be null", c.Name))
			row[i] = coltype.ImplicitDefault(c)
		}
	}
	return nil
}

// convertRow converts given values to column types (store assignment).
func (b *rowBuilder) convert(col int, v sqltypes.Value, rowNum int) (sqltypes.Value, error) {
	c := &b.t.Columns[col]
	if v.IsNull() {
		return v, nil
	}
	out, w, err := coltype.ConvertIn(c, v, b.strict && !b.ignore, rowNum, b.s.zoneOf(c))
	if err != nil {
		return sqltypes.NULL, err
	}
	if w != nil {
		b.s.warn(w.Level, w.Code, w.Message)
	}
	return out, nil
}

// assignAutoInc gives the row its AUTO_INCREMENT value. It returns the
// generated value (0 when the row had an explicit one).
func (b *rowBuilder) assignAutoInc(tx *txn.Txn, row Row) (uint64, uint64, error) {
	ai := b.t.AutoIncCol
	if ai < 0 {
		return 0, 0, nil
	}
	v := row[ai]
	zero := false
	if !v.IsNull() {
		s := v.ToString()
		zero = s == "0" || s == "0.0" || s == "-0"
		if zero && b.s.sqlMode.noAutoValueOnZero {
			zero = false
		}
	}
	if v.IsNull() || zero {
		id, err := b.tbl.NextAutoInc(tx, 1)
		if err != nil {
			return 0, 0, err
		}
		nv, _, err := coltype.Convert(&b.t.Columns[ai], sqltypes.NewUint64(id), true, 1)
		if err != nil {
			return 0, 0, sqlerr.New(sqlerr.AutoincReadFailed, sqlerror.SSUnknownSQLState, "Failed to read auto-increment value from storage engine")
		}
		row[ai] = nv
		return id, 0, nil
	}
	if u, err := strconv.ParseUint(v.ToString(), 10, 64); err == nil {
		if err := b.tbl.ObserveAutoInc(tx, u); err != nil {
			return 0, 0, err
		}
		return 0, u, nil
	}
	return 0, 0, nil
}

// execInsert runs INSERT, INSERT IGNORE, INSERT ... ON DUPLICATE KEY UPDATE
// and REPLACE.
func (s *Session) execInsert(ex *execCtx, st *sqlparser.Insert) (*sqltypes.Result, error) {
	if res, ok, err := s.insertView(ex, st); ok {
		return res, err
	}
	t, _, err := s.targetTable(ex, st.Table, true)
	if err != nil {
		return nil, err
	}
	tbl := s.eng.Store.Open(t)
	var names []string
	b := &rowBuilder{s: s, ex: ex, t: t, tbl: tbl, strict: s.strict(), ignore: bool(st.Ignore), now: time.Now(), compiled: map[sqlparser.Expr]*eval.Expr{}}
	b.c = s.newCompiler(nil, &eval.Scope{}, &names, nil)
	if len(st.Columns) == 0 {
		for i := range t.Columns {
			b.cols = append(b.cols, i)
		}
	} else {
		seen := map[int]bool{}
		for _, c := range st.Columns {
			i := t.ColumnIndex(c.String())
			if i < 0 {
				return nil, sqlerr.BadField(c.String(), "field list")
			}
			if seen[i] {
				return nil, sqlerr.New(sqlerror.ERFieldSpecifiedTwice, sqlerror.SSClientError, "Column '%s' specified twice", c.String())
			}
			seen[i] = true
			b.cols = append(b.cols, i)
		}
	}
	// Source rows.
	var source [][]sqltypes.Value
	var exprRows sqlparser.Values
	switch rows := st.Rows.(type) {
	case sqlparser.Values:
		exprRows = rows
	case sqlparser.TableStatement:
		res := s.insertSource
		if res == nil {
			p, err := s.planQuery(ex.Context(), rows, nil)
			if err != nil {
				return nil, err
			}
			ex2 := s.newExecCtx(ex.Context(), ex.tx, s.bindSessionVars(p.bindVars(), ex.BV))
			if res, err = p.run(ex2); err != nil {
				return nil, err
			}
		}
		if len(res.Fields) != len(b.cols) {
			return nil, sqlerr.New(sqlerror.ERWrongValueCountOnRow, sqlerror.SSWrongValueCountOnRow, "Column count doesn't match value count at row 1")
		}
		source = res.Rows
	default:
		return nil, sqlerr.Unsupported("INSERT source %T", st.Rows)
	}
	n := len(exprRows)
	if source != nil {
		n = len(source)
	}
	multi := n > 1 || source != nil
	checks, err := s.compileChecks(t)
	if err != nil {
		return nil, err
	}
	var onDup *onDupPlan
	if len(st.OnDup) > 0 {
		onDup, err = s.planOnDup(t, st.OnDup, &names)
		if err != nil {
			return nil, err
		}
		onDup.checks, onDup.ignore = checks, bool(st.Ignore)
		ex.BV = s.bindSessionVars(names, ex.BV)
		ex.Env.BindVars = ex.BV
	}
	res := &sqltypes.Result{}
	var ids insertIDs
	tt := s.trgFor(t)
	row := make(Row, len(t.Columns))
	given := make([]bool, len(t.Columns))
	var keyBuf []byte
	for r := 0; r < n; r++ {
		if err := ex.Context().Err(); err != nil {
			return nil, err
		}
		for i := range given {
			given[i] = false
			row[i] = sqltypes.NULL
		}
		if source != nil {
			for k, ci := range b.cols {
				if err := s.refuseGeneratedValue(t, ci, nil); err != nil {
					return nil, err
				}
				v, err := b.convert(ci, source[r][k], r+1)
				if err != nil {
					return nil, err
				}
				row[ci], given[ci] = v, true
			}
		} else {
			vals := exprRows[r]
			if len(vals) == 0 && (len(st.Columns) == 0 || len(b.cols) == 0) {
				// INSERT INTO t () VALUES (): every column takes its default.
			} else if len(vals) != len(b.cols) {
				return nil, sqlerr.New(sqlerror.ERWrongValueCountOnRow, sqlerror.SSWrongValueCountOnRow, "Column count doesn't match value count at row %d", r+1)
			}
			for k := 0; k < len(vals); k++ {
				ci := b.cols[k]
				if err := s.refuseGeneratedValue(t, ci, vals[k]); err != nil {
					return nil, err
				}
				v, err := b.valueFor(vals[k], ci)
				if err != nil {
					return nil, err
				}
				if _, isDef := vals[k].(*sqlparser.Default); isDef && ci != t.AutoIncCol {
					row[ci], given[ci] = v, true
					continue
				}
				v, err = b.convert(ci, v, r+1)
				if err != nil {
					return nil, err
				}
				row[ci], given[ci] = v, true
			}
		}
		if tt == nil || len(tt.progs[trgBefore+trgInsert]) == 0 {
			if err := b.finishRow(row, given, r+1, multi); err != nil {
				return nil, err
			}
		} else {
			// The NOT NULL rules apply to the row the BEFORE INSERT
			// triggers leave (MySQL 5.7+).
			if err := b.fillDefaults(row, given, true); err != nil {
				return nil, err
			}
			if err := s.fire(ex, tt, trgBefore+trgInsert, nil, row); err != nil {
				return nil, err
			}
			if err := b.checkNulls(row, given, r+1, multi); err != nil {
				return nil, err
			}
		}
		if ok, err := s.checkRow(ex, checks, row, bool(st.Ignore)); !ok {
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
		affected, err := s.insertRow(ex, tbl, row, st.Action == sqlparser.ReplaceAct, bool(st.Ignore), onDup, keyBuf)
		if err != nil {
			return nil, err
		}
		res.RowsAffected += affected
	}
	ids.set(s, res)
	if multi {
		dups := uint64(0)
		for _, w := range s.warnings {
			if w.Code == uint16(sqlerror.ERDupEntry) {
				dups++
			}
		}
		res.Info = fmt.Sprintf("Records: %d  Duplicates: %d  Warnings: %d", n, dups, len(s.warnings))
	}
	return res, nil
}

// insertRow inserts one complete row, resolving duplicates per the
// statement's mode. It returns the affected-row count MySQL reports.
func (s *Session) insertRow(ex *execCtx, tbl *table.Table, row Row, replace, ignore bool, onDup *onDupPlan, keyBuf []byte) (uint64, error) {
	var affected uint64
	for attempt := 0; ; attempt++ {
		_, inserted, err := s.fkInsert(ex, tbl, row, keyBuf, ignore)
		if err == nil {
			if !inserted {
				return affected, nil // IGNORE: no parent row
			}
			if tt := s.trgFor(tbl.Def); tt != nil {
				if err := s.fire(ex, tt, trgAfter+trgInsert, nil, row); err != nil {
					return 0, err
				}
			}
			return affected + 1, nil
		}
		var dup *table.DupKeyError
		if !errors.As(err, &dup) {
			return 0, err
		}
		switch {
		case replace && attempt < 64:
			pk, old, err := s.findConflict(ex, tbl, dup.Index, row)
			if err != nil {
				return 0, err
			}
			if old == nil {
				return 0, err
			}
			tt := s.trgFor(tbl.Def)
			if err := s.fire(ex, tt, trgBefore+trgDelete, old, nil); err != nil {
				return 0, err
			}
			if err := s.fkDelete(ex, tbl, pk, old); err != nil {
				return 0, err
			}
			if err := s.fire(ex, tt, trgAfter+trgDelete, old, nil); err != nil {
				return 0, err
			}
			affected++
			continue
		case onDup != nil:
			pk, old, err := s.findConflict(ex, tbl, dup.Index, row)
			if err != nil {
				return 0, err
			}
			if old == nil {
				return 0, dup
			}
			return s.applyOnDup(ex, tbl, onDup, pk, old, row)
		case ignore:
			se := dup.SQLError()
			s.warn("Warning", uint16(se.Num), se.Message)
			return 0, nil
		}
		return 0, err
	}
}

// findConflict locks and reads the existing row that conflicts with row on
// index ix.
func (s *Session) findConflict(ex *execCtx, tbl *table.Table, ix *catalog.Index, row Row) ([]byte, Row, error) {
	var pk []byte
	row = s.toStore(tbl, row) // the keys as stored (timezone.go)
	if ix.Primary {
		k, err := tbl.PKKey(nil, row, 0)
		if err != nil {
			return nil, nil, err
		}
		pk = k
	} else {
		prefix, err := tbl.AppendIndexKey(table.IndexPrefix(nil, ix), ix, row)
		if err != nil {
			return nil, nil, err
		}
		it, err := ex.tx.NewIter(txn.IterOptions{Lower: prefix, Upper: encoding.PrefixEnd(append([]byte(nil), prefix...)), Latest: true})
		if err != nil {
			return nil, nil, err
		}
		if it.Valid() {
			pk, err = tbl.DecodeSecondaryPK(nil, ix, it.Key())
		}
		cerr := it.Close()
		if err != nil {
			return nil, nil, err
		}
		if cerr != nil {
			return nil, nil, cerr
		}
		if pk == nil {
			return nil, nil, nil
		}
	}
	if err := tbl.LockRow(ex.tx, pk, true); err != nil {
		return nil, nil, err
	}
	old, ok, err := tbl.Get(ex.tx, pk, true, nil)
	if err != nil || !ok {
		return nil, nil, err
	}
	return pk, copyRow(nil, s.fromStore(tbl, old)), nil
}

// onDupPlan is a compiled ON DUPLICATE KEY UPDATE clause. Expressions see the
// existing row at offsets [0,n) and VALUES(col) at [n, 2n).
type onDupPlan struct {
	cols  []int
	exprs []*eval.Expr
	// checks are the table's enforced CHECK constraints (nil: none); with
	// ignore a violating update is skipped with a warning.
	checks *checkSet
	ignore bool
}

func (s *Session) planOnDup(t *catalog.Table, upd sqlparser.OnDup, names *[]string) (*onDupPlan, error) {
	sc := &eval.Scope{}
	sc.AddTable(t, t.Name)
	n := len(t.Columns)
	// VALUES(col) reads the row that was to be inserted.
	sc.OffsetTypes = map[string]evalengine.Type{}
	c := s.newCompiler(nil, sc, names, nil)
	p := &onDupPlan{}
	for _, ue := range upd {
		ci := t.ColumnIndex(ue.Name.Name.String())
		if ci < 0 {
			return nil, sqlerr.BadField(ue.Name.Name.String(), "field list")
		}
		if err := s.refuseGeneratedValue(t, ci, ue.Expr); err != nil {
			return nil, err
		}
		var rerr error
		e := sqlparser.Rewrite(sqlparser.Clone(ue.Expr), nil, func(cur *sqlparser.Cursor) bool {
			if vf, ok := cur.Node().(*sqlparser.ValuesFuncExpr); ok {
				vi := t.ColumnIndex(vf.Name.Name.String())
				if vi < 0 {
					rerr = sqlerr.BadField(vf.Name.Name.String(), "field list")
					return false
				}
				off := &sqlparser.Offset{V: n + vi, Original: vf}
				sc.OffsetTypes[sqlparser.String(vf)] = sc.Cols[vi].Type
				cur.Replace(off)
				return true // post-order: false would end the rewrite here
			}
			return true
		}).(sqlparser.Expr)
		if rerr != nil {
			return nil, rerr
		}
		x, err := c.Compile(e)
		if err != nil {
			return nil, err
		}
		p.cols = append(p.cols, ci)
		p.exprs = append(p.exprs, x)
	}
	return p, nil
}

// applyOnDup updates the existing row; affected is 2 when it changed, 0
// when not (1 with CLIENT_FOUND_ROWS).
func (s *Session) applyOnDup(ex *execCtx, tbl *table.Table, p *onDupPlan, pk []byte, old, ins Row) (uint64, error) {
	t := tbl.Def
	n := len(t.Columns)
	both := make(Row, 2*n)
	copy(both, old)
	copy(both[n:], ins)
	tt := s.trgFor(t)
	deferNull := tt != nil && len(tt.progs[trgBefore+trgUpdate]) > 0
	for k, ci := range p.cols {
		v, err := ex.Eval(p.exprs[k], both)
		if err != nil {
			return 0, err
		}
		c := &t.Columns[ci]
		if v.IsNull() && !c.Nullable && deferNull {
			// NOT NULL applies after the BEFORE UPDATE triggers.
		} else if v.IsNull() && !c.Nullable {
			if s.strict() {
				return 0, sqlerr.New(sqlerror.ERBadNullError, sqlerror.SSConstraintViolation, "Column '%s' cannot be null", c.Name)
			}
			v = coltype.ImplicitDefault(c)
		} else if !v.IsNull() {
			cv, w, err := coltype.ConvertIn(c, v, s.strict(), 1, s.zoneOf(c))
			if err != nil {
				return 0, err
			}
			if w != nil {
				s.warn(w.Level, w.Code, w.Message)
			}
			v = cv
		}
		both[ci] = cloneValue(v)
	}
	newRow := both[:n]
	changed := !rowsEqual(old, newRow)
	if changed {
		s.applyOnUpdate(ex, t, newRow, p.cols)
	}
	if tt != nil {
		if err := s.fire(ex, tt, trgBefore+trgUpdate, old, newRow); err != nil {
			return 0, err
		}
		if deferNull {
			if err := s.updateNulls(t, newRow, p.cols, false); err != nil {
				return 0, err
			}
		}
		changed = !rowsEqual(old, newRow)
	}
	if ok, err := s.checkRow(ex, p.checks, newRow, p.ignore); !ok {
		return 0, err
	}
	if !changed {
		if err := s.fire(ex, tt, trgAfter+trgUpdate, old, newRow); err != nil {
			return 0, err
		}
		if s.clientFoundRows {
			return 1, nil
		}
		return 0, nil
	}
	if _, err := s.fkUpdate(ex, tbl, pk, old, newRow); err != nil {
		return 0, err
	}
	if err := s.fire(ex, tt, trgAfter+trgUpdate, old, newRow); err != nil {
		return 0, err
	}
	if t.AutoIncCol >= 0 {
		if u, err := strconv.ParseUint(newRow[t.AutoIncCol].ToString(), 10, 64); err == nil {
			_ = tbl.ObserveAutoInc(ex.tx, u)
		}
	}
	return 2, nil
}

// applyOnUpdate sets ON UPDATE CURRENT_TIMESTAMP columns not assigned
// explicitly.
func (s *Session) applyOnUpdate(ex *execCtx, t *catalog.Table, row Row, assigned []int) {
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.OnUpdateExpr == "" {
			continue
		}
		skip := false
		for _, a := range assigned {
			if a == i {
				skip = true
			}
		}
		if skip {
			continue
		}
		cc := *c
		cc.DefaultExpr = c.OnUpdateExpr
		if v, err := s.evalDefaultExpr(ex, &cc, time.Now()); err == nil {
			row[i] = v
		}
	}
}

// rowsEqual compares two rows value by value (byte-exact, as stored).
func rowsEqual(a, b Row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameValue(a[i], b[i]) {
			return false
		}
	}
	return true
}

// sameValue reports whether two values of one column are the same bytes
// (NULL only equal to NULL).
func sameValue(a, b sqltypes.Value) bool {
	return a.IsNull() == b.IsNull() && string(a.Raw()) == string(b.Raw())
}

// insertIDs tracks the AUTO_INCREMENT values of an INSERT or LOAD DATA
// for its OK packet and LAST_INSERT_ID(): the first generated value, else
// the last explicit one.
type insertIDs struct{ firstGen, lastExplicit uint64 }

// note records one row's generated (or explicit) value; 0: none.
func (ids *insertIDs) note(gen, explicit uint64) {
	if gen != 0 && ids.firstGen == 0 {
		ids.firstGen = gen
	}
	if explicit != 0 {
		ids.lastExplicit = explicit
	}
}

// set puts the statement's insert id into res (and a generated one into
// the session's LAST_INSERT_ID()).
func (ids *insertIDs) set(s *Session, res *sqltypes.Result) {
	if ids.firstGen != 0 {
		s.lastInsertID = ids.firstGen
		res.InsertID = ids.firstGen
		res.InsertIDChanged = true
	} else if ids.lastExplicit != 0 {
		res.InsertID = ids.lastExplicit
	}
}
