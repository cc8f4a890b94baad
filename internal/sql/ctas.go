package sql

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/plan"
	"github.com/strata-db/strata/internal/sql/schemachange"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// CREATE TABLE … SELECT. `CREATE TABLE t [(defs)] [options] [IGNORE |
// REPLACE] [AS] SELECT …` creates t with a column for each column of the
// SELECT, after the columns named only in the definitions (a column named
// in both takes its definition from the CREATE part and its place from the
// SELECT), then inserts the SELECT's rows as INSERT … SELECT into those
// columns does: duplicate keys are error 1062 (IGNORE skips the row,
// REPLACE replaces the old one), store assignment errors as in INSERT. The
// statement is atomic for its outcome: when the copy fails the table is
// dropped again (a crash between the two leaves the empty table).
//
// A column's type comes from the SELECT as MySQL 8 derives it: a column of
// a stored table keeps its type, NULL-ability (NULL when the table is on
// the inner side of an outer join), character set and collation, default
// and comment, but not AUTO_INCREMENT or keys; an expression's type is its
// result type (integer literals INT, or BIGINT beyond 32 bits; string
// literals VARCHAR of their length; DECIMAL(p,s); DOUBLE; the temporal
// types with their fractional digits), NOT NULL when the expression cannot
// be NULL — then with MySQL's implicit default ('0' for numbers, '' for
// strings) —, NULL as BINARY(0).

// createTableSelect runs CREATE TABLE … SELECT (the table does not exist).
func (s *Session) createTableSelect(ctx context.Context, st *sqlparser.CreateTable, db, name string, checkCols []string) (*sqltypes.Result, error) {
	p, err := s.planQuery(ctx, st.Select, nil)
	if err != nil {
		return nil, err
	}
	// The SELECT runs first: its rows are what is inserted, and the
	// column types are widened to hold them where the static type is too
	// narrow (a wrong type must not round or clip the data).
	src, err := s.dml(ctx, nil, func(ex *execCtx) (*sqltypes.Result, error) {
		ex2 := s.newExecCtx(ex.Context(), ex.tx, s.bindSessionVars(p.bindVars(), ex.BV))
		return p.run(ex2)
	})
	// CREATE TEMPORARY TABLE … SELECT runs in the open transaction
	// (temporary.go): no commit, and a failed statement is rolled back as
	// a statement (dml).
	if err == nil && !st.Temp {
		err = s.commit()
	}
	if err != nil {
		if !st.Temp {
			s.rollback()
		}
		return nil, err
	}
	outs := p.outputs()
	spec := &sqlparser.TableSpec{}
	var explicit []*sqlparser.ColumnDefinition
	if st.TableSpec != nil {
		*spec = *st.TableSpec
		explicit = withoutKeysOnly(st.TableSpec.Columns)
	}
	// Columns named only in the CREATE part first, then the SELECT's.
	byName := map[string]*sqlparser.ColumnDefinition{}
	for _, c := range explicit {
		byName[strings.ToLower(c.Name.String())] = c
	}
	selected := map[string]bool{}
	var cols []*sqlparser.ColumnDefinition
	names := make(sqlparser.Columns, 0, len(outs))
	for _, o := range outs {
		if o.name == "" || len(o.name) > 64 || strings.HasSuffix(o.name, " ") {
			return nil, sqlerr.New(sqlerror.ERWrongColumnName, sqlerror.SSClientError, "Incorrect column name '%s'", o.name)
		}
		k := strings.ToLower(o.name)
		if selected[k] {
			return nil, sqlerr.New(sqlerror.ERDupFieldName, sqlerror.SSDupFieldName, "Duplicate column name '%s'", o.name)
		}
		selected[k] = true
		names = append(names, sqlparser.NewIdentifierCI(o.name))
	}
	for _, c := range explicit {
		if !selected[strings.ToLower(c.Name.String())] {
			cols = append(cols, c)
		}
	}
	for i, o := range outs {
		if c := byName[strings.ToLower(o.name)]; c != nil {
			cols = append(cols, c)
			continue
		}
		c, err := s.selectedColumn(st.Select, p, i, o, src.Rows)
		if err != nil {
			return nil, err
		}
		cols = append(cols, c)
	}
	spec.Columns = cols
	def, err := s.buildTableDef(db, name, spec, checkCols)
	if err != nil {
		return nil, err
	}
	if st.Temp {
		err = s.putTemporary(def)
	} else {
		if s.ddl.event != nil {
			// The table is logged as created, with the change that
			// creates it, its rows as the row events of the insert that
			// follows (MySQL's row format). SHOW CREATE TABLE's text
			// names the table unqualified: it runs in the table's
			// database.
			s.ddl.event = s.ddlEvent(db, coltype.ShowCreateTable(def, 0))
		}
		err = s.putTable(db, name, def)
	}
	if err != nil {
		return nil, err
	}
	ins := &sqlparser.Insert{
		Action:  sqlparser.InsertAct,
		Table:   sqlparser.NewAliasedTableExpr(sqlparser.TableName{Name: sqlparser.NewIdentifierCS(name), Qualifier: sqlparser.NewIdentifierCS(db)}, ""),
		Columns: names,
		Rows:    st.Select,
	}
	switch st.IgnoreOrReplace {
	case sqlparser.IgnoreType:
		ins.Ignore = true
	case sqlparser.ReplaceType:
		ins.Action = sqlparser.ReplaceAct
	}
	res, err := s.dml(ctx, nil, func(ex *execCtx) (*sqltypes.Result, error) {
		s.insertSource = src
		defer func() { s.insertSource = nil }() // also on a panic
		return s.execInsert(ex, ins)
	})
	if st.Temp {
		if err != nil {
			s.dropTemporary(def)
			return nil, err
		}
		return res, nil
	}
	if err == nil {
		err = s.commit()
	}
	if err != nil {
		s.rollback()
		if s.ddl.event != nil {
			// The binlog has the CREATE: it gets the DROP too, with the
			// change that drops the table.
			s.ddl = ddlCommit{event: s.ddlEvent(db, "DROP TABLE IF EXISTS `"+strings.ReplaceAll(name, "`", "``")+"`")}
		}
		if derr := s.schemaEnv().DropTables(ctx, tableNames([]*catalog.Table{def}), nil); derr != nil {
			return nil, fmt.Errorf("CREATE TABLE ... SELECT: dropping %s.%s after %v: %w", db, name, err, derr)
		}
		return nil, err
	}
	return res, nil
}

// selectedColumn is the definition of the table column made for output i
// of the SELECT.
func (s *Session) selectedColumn(sel sqlparser.TableStatement, p queryPlan, i int, o outCol, rows []sqltypes.Row) (*sqlparser.ColumnDefinition, error) {
	var text string
	if sp, ok := p.(*selectPlan); ok && sp.projCols[i] >= 0 {
		ci := sp.projCols[i]
		if c := sp.sc.Cols[ci].Col; c != nil {
			col := *c
			col.Name = o.name
			col.AutoIncrement = false
			if sp.innerOfOuter(ci) || sp.hasAgg && len(sp.groupBy) == 0 || hasNull(rows, i) {
				col.Nullable = true // (a NULL also comes from WITH ROLLUP)
			}
			text = coltype.ColumnSQL(&col)
		}
	}
	if text == "" {
		typ := o.typ
		if prec, scale, ok := castDecimal(sel, i); ok {
			typ = evalengine.NewTypeEx(sqltypes.Decimal, collations.CollationBinaryID, typ.Nullable(), prec, scale, nil)
		}
		if prec, scale, ok := sumAvgDecimal(sel, p, i); ok {
			typ = evalengine.NewTypeEx(sqltypes.Decimal, collations.CollationBinaryID, true, prec, scale, nil)
		}
		if sp, ok := p.(*selectPlan); ok && sp.hasAgg && len(sp.groupBy) == 0 && !aggregateOutput(sel, i) {
			// Without GROUP BY, an empty input gives one row of NULLs
			// but for the aggregates.
			typ.SetNullability(true)
		}
		fit, err := fitValues(typ, rows, i)
		if err != nil {
			return nil, err
		}
		t, err := exprColumnType(fit, literalOf(sel, i))
		if err != nil {
			return nil, err
		}
		text = coltype.QuoteIdent(o.name) + " " + t
	}
	stmt, err := s.eng.Parser.ParseStrictDDL("CREATE TABLE t (" + text + ")")
	if err != nil {
		return nil, fmt.Errorf("CREATE TABLE ... SELECT: column %q from %q: %w", o.name, text, err)
	}
	ct, ok := stmt.(*sqlparser.CreateTable)
	if !ok || ct.TableSpec == nil || len(ct.TableSpec.Columns) != 1 {
		return nil, sqlerr.Unsupported("CREATE TABLE ... SELECT of column %s", o.name)
	}
	return ct.TableSpec.Columns[0], nil
}

// innerOfOuter reports whether scope column ci belongs to a table on the
// inner side of an outer join (its values may be NULL-extended).
func (p *selectPlan) innerOfOuter(ci int) bool {
	for lvl, src := range p.srcs {
		if ci < src.off || ci >= src.off+src.width {
			continue
		}
		for k := 0; k <= lvl; k++ {
			if f := p.srcs[k]; f.outer && f.nestLast >= lvl {
				return true
			}
		}
	}
	return false
}

// selectOutput returns the select-list item of output i when stmt is a
// SELECT without * (its outputs are then its items, one each).
func selectOutput(stmt sqlparser.TableStatement, i int) (sqlparser.SelectExpr, bool) {
	sel, ok := stmt.(*sqlparser.Select)
	if !ok || sel.SelectExprs == nil || i >= len(sel.SelectExprs.Exprs) {
		return nil, false
	}
	for _, se := range sel.SelectExprs.Exprs {
		if _, star := se.(*sqlparser.StarExpr); star {
			return nil, false
		}
	}
	return sel.SelectExprs.Exprs[i], true
}

// outputExpr is output i of a SELECT without * when it is an expression
// (selectOutput), else nil.
func outputExpr(stmt sqlparser.TableStatement, i int) *sqlparser.AliasedExpr {
	se, ok := selectOutput(stmt, i)
	if !ok {
		return nil
	}
	ae, _ := se.(*sqlparser.AliasedExpr)
	return ae
}

// literalOf returns output i's expression when it is a literal (or a
// negated one) of a SELECT without *.
func literalOf(stmt sqlparser.TableStatement, i int) *sqlparser.Literal {
	ae := outputExpr(stmt, i)
	if ae == nil {
		return nil
	}
	e := ae.Expr
	neg := false
	if u, ok := e.(*sqlparser.UnaryExpr); ok && u.Operator == sqlparser.UMinusOp {
		e, neg = u.Expr, true
	}
	if b, ok := e.(sqlparser.BoolVal); ok {
		// TRUE and FALSE are the integers 1 and 0.
		v := "0"
		if b {
			v = "1"
		}
		e = &sqlparser.Literal{Type: sqlparser.IntVal, Val: v}
	}
	lit, ok := e.(*sqlparser.Literal)
	if !ok {
		return nil
	}
	if neg {
		return &sqlparser.Literal{Type: lit.Type, Val: "-" + lit.Val}
	}
	return lit
}

// exprColumnType is the column type (with NULL-ability and MySQL's
// implicit default) of an expression of static type t.
func exprColumnType(t evalengine.Type, lit *sqlparser.Literal) (string, error) {
	if !t.Valid() {
		return "", sqlerr.Unsupported("CREATE TABLE ... SELECT of an expression without a static type")
	}
	var typ, def string
	unsigned := ""
	switch st := t.Type(); {
	case st == sqltypes.Null:
		return "binary(0) DEFAULT NULL", nil
	case sqltypes.IsIntegral(st):
		if sqltypes.IsUnsigned(st) {
			unsigned = " unsigned"
		}
		switch st {
		case sqltypes.Int8, sqltypes.Uint8:
			typ = "tinyint"
		case sqltypes.Int16, sqltypes.Uint16:
			typ = "smallint"
		case sqltypes.Int24, sqltypes.Uint24:
			typ = "mediumint"
		case sqltypes.Int32, sqltypes.Uint32:
			typ = "int"
		default:
			typ = "bigint"
		}
		if lit != nil && lit.Type == sqlparser.IntVal {
			if v, err := strconv.ParseInt(lit.Val, 10, 64); err == nil && v >= -1<<31 && v < 1<<31 {
				typ, unsigned = "int", ""
			}
		}
		typ += unsigned
		def = "0"
	case st == sqltypes.Decimal:
		prec, scale := t.Size(), t.Scale()
		if lit != nil && lit.Type == sqlparser.DecimalVal {
			digits := strings.TrimLeft(strings.Trim(lit.Val, "-"), "0")
			prec = int32(len(strings.ReplaceAll(digits, ".", "")))
			if dot := strings.IndexByte(lit.Val, '.'); dot >= 0 {
				scale = int32(len(lit.Val) - dot - 1)
			}
		}
		prec = max(prec, scale, 1)
		if prec > 65 || scale > 30 {
			return "", sqlerr.Unsupported("CREATE TABLE ... SELECT of DECIMAL(%d,%d)", prec, scale)
		}
		typ = fmt.Sprintf("decimal(%d,%d)", prec, scale)
		def = "0"
	case st == sqltypes.Float32:
		typ, def = "float", "0"
	case st == sqltypes.Float64:
		typ, def = "double", "0"
	case st == sqltypes.Datetime, st == sqltypes.Timestamp, st == sqltypes.Time:
		typ = map[sqltypes.Type]string{sqltypes.Datetime: "datetime", sqltypes.Timestamp: "timestamp", sqltypes.Time: "time"}[st]
		if sc := t.Scale(); sc > 0 && sc <= 6 {
			typ += "(" + strconv.Itoa(int(sc)) + ")"
		}
		if st == sqltypes.Timestamp && t.Nullable() {
			typ += " NULL"
		}
	case st == sqltypes.Date:
		typ = "date"
	case st == sqltypes.Year:
		typ = "year"
	case st == sqltypes.TypeJSON:
		typ = "json"
	case st == sqltypes.Bit:
		typ = fmt.Sprintf("bit(%d)", max(t.Size(), 1))
	case (st == sqltypes.Enum || st == sqltypes.Set) && t.Values() != nil && len(*t.Values()) > 0:
		// MAX(e), IF(…, e, e): the column's members.
		typ = strings.ToLower(st.String()) + "(" + strings.Join(*t.Values(), ",") + ")"
		coll := t.Collation()
		typ += " CHARACTER SET " + coltype.CharsetName(coll) + " COLLATE " + coltype.CollationName(coll)
	case sqltypes.IsText(st) || sqltypes.IsBinary(st) || st == sqltypes.Enum || st == sqltypes.Set:
		coll := t.Collation()
		binary := coll == collations.CollationBinaryID || sqltypes.IsBinary(st) && !sqltypes.IsText(st)
		n := t.Size()
		if lit != nil {
			switch lit.Type {
			case sqlparser.StrVal:
				n = int32(len([]rune(lit.Val)))
			case sqlparser.HexVal: // x'4142'
				n = int32(len(lit.Val) / 2)
			case sqlparser.HexNum: // 0x4142
				n = int32(len(lit.Val)-1) / 2
			case sqlparser.BitNum: // b'101'
				n = int32(len(lit.Val)+7) / 8
			}
		}
		if n <= 0 && lit == nil {
			n = 255
		}
		maxLen := min(int32(65532), int32(65535/coltype.MaxCharLen(coll)))
		switch {
		case binary && n <= 65535:
			typ = fmt.Sprintf("varbinary(%d)", n)
		case binary:
			typ = "longblob"
		case n <= maxLen:
			typ = fmt.Sprintf("varchar(%d)", n)
		default:
			typ = "longtext"
		}
		if !binary {
			typ += " CHARACTER SET " + coltype.CharsetName(coll) + " COLLATE " + coltype.CollationName(coll)
			def = "''"
		}
		if strings.HasSuffix(typ, "blob") || strings.HasSuffix(typ, "text") {
			def = ""
		}
	default:
		return "", sqlerr.Unsupported("CREATE TABLE ... SELECT of a %s expression", t.Type())
	}
	if t.Nullable() {
		return typ + " DEFAULT NULL", nil
	}
	typ += " NOT NULL"
	if def != "" {
		if def != "''" {
			def = "'" + def + "'"
		}
		typ += " DEFAULT " + def
	}
	return typ, nil
}

// putTable creates the table def named db.name (CREATE TABLE's last step).
func (s *Session) putTable(db, name string, def *catalog.Table) error {
	def.CreateTime = time.Now().Unix()
	return schemachange.Apply(s.eng.Cat, s.ddlHook(), func(d *catalog.DDL) error {
		// Again under the DDL mutex: a CREATE TABLE of the same name that
		// committed meanwhile must not be replaced.
		if s.eng.Cat.Exists(db, name) {
			return sqlerr.New(sqlerr.TableExists, sqlerr.StateTableExists, "Table '%s' already exists", name)
		}
		for _, ix := range def.Indexes {
			ix.ID = d.NewIndexID()
		}
		return d.PutTable(def)
	})
}

// aggregateOutput reports whether output i of a SELECT without * is an
// aggregate or a constant expression (not NULL for an empty input).
func aggregateOutput(stmt sqlparser.TableStatement, i int) bool {
	se, ok := selectOutput(stmt, i)
	if !ok {
		return false
	}
	ae, ok := se.(*sqlparser.AliasedExpr)
	if !ok || plan.ContainsAggr(ae.Expr) {
		return true
	}
	// A constant is what it is, rows or not.
	column := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if _, ok := n.(*sqlparser.ColName); ok {
			column = true
		}
		return !column, nil
	}, ae.Expr)
	return !column
}

// fitValues widens the static type t of output column i so that every
// value in rows fits: DECIMAL digits and scale, fractional seconds, string
// lengths, integers past 32 bits, a NULL in a NOT NULL result.
func fitValues(t evalengine.Type, rows []sqltypes.Row, i int) (evalengine.Type, error) {
	typ, size, scale, nullable := t.Type(), t.Size(), t.Scale(), t.Nullable()
	if size <= 0 && (sqltypes.IsText(typ) || sqltypes.IsBinary(typ)) {
		size = 255 // no static length (CONCAT): room beyond today's values
	}
	intPart := size - scale // DECIMAL digits before the point
	for _, r := range rows {
		if i >= len(r) {
			continue
		}
		v := r[i]
		if v.IsNull() {
			nullable = true
			continue
		}
		if class(v.Type()) != class(typ) {
			return t, sqlerr.Unsupported("CREATE TABLE ... SELECT of a column whose values are %s, not %s", v.Type(), typ)
		}
		switch {
		case sqltypes.IsUnsigned(typ):
			if _, err := v.ToUint64(); err != nil {
				typ = sqltypes.Int64
			}
		case typ == sqltypes.Decimal:
			txt := strings.TrimLeft(v.ToString(), "-")
			intDigits, frac := len(txt), 0
			if dot := strings.IndexByte(txt, '.'); dot >= 0 {
				intDigits, frac = dot, len(txt)-dot-1
			}
			intPart = max(intPart, int32(intDigits))
			scale = max(scale, int32(frac))
		case typ == sqltypes.Datetime || typ == sqltypes.Timestamp || typ == sqltypes.Time:
			if txt := v.ToString(); strings.IndexByte(txt, '.') >= 0 {
				scale = max(scale, int32(len(txt)-strings.IndexByte(txt, '.')-1))
			}
		case sqltypes.IsText(typ) || sqltypes.IsBinary(typ):
			n := int32(len(v.Raw()))
			if sqltypes.IsText(typ) {
				n = int32(utf8.RuneCount(v.Raw()))
			}
			size = max(size, n)
		case typ == sqltypes.Int32 || typ == sqltypes.Int24 || typ == sqltypes.Int16 || typ == sqltypes.Int8:
			if n, err := v.ToInt64(); err != nil || n < -1<<31 || n >= 1<<31 {
				typ = sqltypes.Int64
			}
		}
	}
	if typ == sqltypes.Decimal {
		size = max(size, intPart+scale)
	}
	return evalengine.NewTypeEx(typ, t.Collation(), nullable, size, scale, t.Values()), nil
}

// class groups the types whose values one column type can hold.
func class(t sqltypes.Type) int {
	switch {
	case sqltypes.IsIntegral(t), t == sqltypes.Year, t == sqltypes.Bit:
		return 1
	case t == sqltypes.Decimal, sqltypes.IsFloat(t):
		return 2
	case sqltypes.IsText(t), sqltypes.IsBinary(t), t == sqltypes.Enum, t == sqltypes.Set:
		return 3
	case sqltypes.IsDate(t), t == sqltypes.Time:
		return 4
	}
	return int(t) + 100 // JSON, NULL, …: only themselves
}

// withoutKeysOnly drops the placeholder column of a definition of keys
// only (parse.KeysOnlyColumn).
func withoutKeysOnly(cols []*sqlparser.ColumnDefinition) []*sqlparser.ColumnDefinition {
	if len(cols) > 0 && cols[0].Name.String() == parse.KeysOnlyColumn {
		return cols[1:]
	}
	return cols
}

// sumAvgDecimal is MySQL's DECIMAL(p,s) of SUM or AVG over an integer or
// DECIMAL column (output i): SUM adds 22 digits, AVG 4 digits and 4
// decimals (div_precision_increment's default) to the column's.
func sumAvgDecimal(stmt sqlparser.TableStatement, p queryPlan, i int) (int32, int32, bool) {
	sp, ok := p.(*selectPlan)
	ae := outputExpr(stmt, i)
	if !ok || ae == nil {
		return 0, 0, false
	}
	var arg sqlparser.Expr
	avg := false
	switch e := ae.Expr.(type) {
	case *sqlparser.Sum:
		arg = e.Arg
	case *sqlparser.Avg:
		arg, avg = e.Arg, true
	default:
		return 0, 0, false
	}
	cn, ok := arg.(*sqlparser.ColName)
	if !ok {
		return 0, 0, false
	}
	ci, err := sp.sc.Resolve(cn)
	if err != nil || sp.sc.Cols[ci].Col == nil {
		return 0, 0, false
	}
	col := sp.sc.Cols[ci].Col
	var prec, scale int32
	switch col.Type {
	case sqltypes.Int8, sqltypes.Uint8:
		prec = 3
	case sqltypes.Int16, sqltypes.Uint16:
		prec = 5
	case sqltypes.Int24, sqltypes.Uint24:
		prec = 8
	case sqltypes.Int32, sqltypes.Uint32:
		prec = 10
	case sqltypes.Int64:
		prec = 19
	case sqltypes.Uint64:
		prec = 20
	case sqltypes.Decimal:
		prec, scale = int32(col.Length), max(int32(col.Scale), 0)
	default:
		return 0, 0, false
	}
	if avg {
		return min(prec+4, 65), min(scale+4, 30), true
	}
	return min(prec+22, 65), scale, true
}

// castDecimal is the DECIMAL(p,s) of output i when it is CAST(… AS
// DECIMAL(p,s)) or CONVERT(…, DECIMAL(p,s)) (default (10,0)).
func castDecimal(stmt sqlparser.TableStatement, i int) (int32, int32, bool) {
	ae := outputExpr(stmt, i)
	if ae == nil {
		return 0, 0, false
	}
	var ct *sqlparser.ConvertType
	switch e := ae.Expr.(type) {
	case *sqlparser.CastExpr:
		ct = e.Type
	case *sqlparser.ConvertExpr:
		ct = e.Type
	}
	if ct == nil || !strings.EqualFold(ct.Type, "decimal") {
		return 0, 0, false
	}
	prec, scale := int32(10), int32(0)
	if ct.Length != nil {
		prec = int32(*ct.Length)
	}
	if ct.Scale != nil {
		scale = int32(*ct.Scale)
	}
	return prec, scale, prec >= 1 && prec <= 65 && scale >= 0 && scale <= 30 && scale <= prec
}

// hasNull reports whether column i of rows holds a NULL.
func hasNull(rows []sqltypes.Row, i int) bool {
	for _, r := range rows {
		if i < len(r) && r[i].IsNull() {
			return true
		}
	}
	return false
}
