package sql

// JSON_TABLE in FROM (MySQL 8.0's table function): the definition is
// planned once (paths parsed, column types and DEFAULT values converted)
// and kept in the plan, immutable; its rows are computed per execution —
// per outer row when its argument reads a table to its left (a lateral,
// dependent join) — from a document parsed for that evaluation only.
//
// Rows are produced as MySQL's fill_json_table does: one per match of the
// row path; a NESTED PATH yields one row per match of its path with the
// enclosing columns repeated, and a row with its columns NULL when nothing
// matches; sibling NESTED PATHs are not cross-joined: each produces its
// rows in turn with the other's columns NULL.

import (
	"strconv"
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/json"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// jtMaxNested is MySQL's MAX_NESTED_PATH: the row path and at most 15
// NESTED PATHs.
const jtMaxNested = 16

// jsonTable is a planned JSON_TABLE: immutable, shared by the executions
// of its plan.
type jsonTable struct {
	alias string
	def   *catalog.Table // its columns, NESTED PATH columns flattened in order
	arg   sqlparser.Expr // the document expression
	root  *jtNest
}

// jtNest is the row path or a NESTED PATH with its columns.
type jtNest struct {
	path *json.Path
	cols []*jtCol
	// first, end: the slots of its columns and those of its nests.
	first, end int
}

type jtKind uint8

const (
	jtOrdinality jtKind = iota
	jtPath
	jtExists
	jtNested
)

// jtCol is one entry of a COLUMNS clause.
type jtCol struct {
	kind jtKind
	slot int // the column's position in the row (not for jtNested)
	col  *catalog.Column
	path *json.Path
	nest *jtNest // jtNested
	// onEmpty, onError: NULL (the default), ERROR or DEFAULT value.
	onEmpty, onError jtResponse
}

// jtResponse is an ON EMPTY or ON ERROR clause.
type jtResponse struct {
	kind sqlparser.JtOnResponseType
	val  sqltypes.Value // DEFAULT's value, converted to the column
}

// jsonTableItem plans JSON_TABLE(expr, path COLUMNS (...)) AS alias as a
// FROM item. Its argument is compiled later (compileTableFuncs), once the
// scope of the FROM clause is known.
func jsonTableItem(t *sqlparser.JSONTableExpr) (*fromItem, error) {
	alias := t.Alias.String()
	if alias == "" {
		return nil, sqlerr.New(sqlerr.TableFuncNoAlias, sqlerror.SSClientError, "Every table function must have an alias")
	}
	jt := &jsonTable{alias: alias, arg: t.Expr,
		def: &catalog.Table{Name: alias, HiddenPK: true, AutoIncCol: -1,
			Indexes: []*catalog.Index{{Name: "PRIMARY", Primary: true}}}}
	path, err := jtParsePath(t.Filter)
	if err != nil {
		return nil, err
	}
	nested := 0
	jt.root = &jtNest{path: path}
	if err := jt.columns(jt.root, t.Columns, &nested); err != nil {
		return nil, err
	}
	// Column pointers last: def.Columns no longer grows.
	var bind func(n *jtNest)
	bind = func(n *jtNest) {
		for _, c := range n.cols {
			if c.kind == jtNested {
				bind(c.nest)
			} else {
				c.col = &jt.def.Columns[c.slot]
			}
		}
	}
	bind(jt.root)
	if err := jt.defaults(jt.root); err != nil {
		return nil, err
	}
	item := &fromItem{def: jt.def, alias: alias, fn: jt}
	item.virtual = func(*execCtx) ([]Row, error) {
		return nil, sqlerr.New(sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState, "JSON_TABLE '%s' read without its argument", alias)
	}
	return item, nil
}

// columns plans a COLUMNS clause into n.
func (jt *jsonTable) columns(n *jtNest, defs []*sqlparser.JtColumnDefinition, nested *int) error {
	n.first = len(jt.def.Columns)
	for _, d := range defs {
		switch {
		case d.JtOrdinal != nil:
			ct := &sqlparser.ColumnType{Type: "int", Unsigned: true}
			if err := jt.addColumn(n, &jtCol{kind: jtOrdinality}, d.JtOrdinal.Name, ct); err != nil {
				return err
			}
		case d.JtPath != nil:
			p := d.JtPath
			path, err := jtParsePath(p.Path)
			if err != nil {
				return err
			}
			c := &jtCol{kind: jtPath, path: path}
			if p.JtColExists {
				c.kind = jtExists
			}
			if c.onEmpty, err = jtResponseOf(p.EmptyOnResponse); err != nil {
				return err
			}
			if c.onError, err = jtResponseOf(p.ErrorOnResponse); err != nil {
				return err
			}
			if err := jt.addColumn(n, c, p.Name, p.Type); err != nil {
				return err
			}
		case d.JtNestedPath != nil:
			*nested++
			if *nested >= jtMaxNested {
				return sqlerr.New(sqlerr.JSONTableNestedPaths, sqlerror.SSClientError, "More than supported %d NESTED PATHs were found in JSON_TABLE '%s'", jtMaxNested, jt.alias)
			}
			path, err := jtParsePath(d.JtNestedPath.Path)
			if err != nil {
				return err
			}
			sub := &jtNest{path: path}
			if err := jt.columns(sub, d.JtNestedPath.Columns, nested); err != nil {
				return err
			}
			n.cols = append(n.cols, &jtCol{kind: jtNested, nest: sub})
		}
	}
	n.end = len(jt.def.Columns)
	return nil
}

// addColumn adds a column of type ct (nullable, as every JSON_TABLE column).
func (jt *jsonTable) addColumn(n *jtNest, c *jtCol, name sqlparser.IdentifierCI, ct *sqlparser.ColumnType) error {
	for i := range jt.def.Columns {
		if strings.EqualFold(jt.def.Columns[i].Name, name.String()) {
			return sqlerr.New(sqlerror.ERDupFieldName, sqlerror.SSDupFieldName, "Duplicate column name '%s'", name.String())
		}
	}
	typ := &sqlparser.ColumnType{Type: ct.Type, Length: ct.Length, Scale: ct.Scale, Unsigned: ct.Unsigned,
		Zerofill: ct.Zerofill, Charset: ct.Charset, EnumValues: ct.EnumValues}
	if ct.Options != nil && ct.Options.Collate != "" {
		typ.Options = &sqlparser.ColumnTypeOptions{Collate: ct.Options.Collate}
	}
	col, err := coltype.FromAST(&sqlparser.ColumnDefinition{Name: name, Type: typ}, collations.CollationUtf8mb4ID)
	if err != nil {
		return err
	}
	switch col.Type {
	case sqltypes.Int8, sqltypes.Uint8, sqltypes.Int16, sqltypes.Uint16, sqltypes.Int24, sqltypes.Uint24,
		sqltypes.Int32, sqltypes.Uint32, sqltypes.Int64, sqltypes.Uint64,
		sqltypes.Decimal, sqltypes.Float32, sqltypes.Float64,
		sqltypes.Char, sqltypes.VarChar, sqltypes.Text,
		sqltypes.Date, sqltypes.Datetime, sqltypes.Timestamp, sqltypes.Time, sqltypes.TypeJSON:
	default:
		return sqlerr.Unsupported("JSON_TABLE column '%s' of type %s", col.Name, strings.ToUpper(ct.Type))
	}
	if c.kind == jtExists && col.Type == sqltypes.TypeJSON {
		return sqlerr.Unsupported("JSON_TABLE EXISTS PATH column '%s' of type JSON", col.Name)
	}
	col.Nullable = true
	c.slot = len(jt.def.Columns)
	jt.def.Columns = append(jt.def.Columns, col)
	n.cols = append(n.cols, c)
	return nil
}

// jtParsePath parses a JSON_TABLE path, a string literal.
func jtParsePath(e sqlparser.Expr) (*json.Path, error) {
	lit, ok := e.(*sqlparser.Literal)
	if !ok || lit.Type != sqlparser.StrVal {
		return nil, sqlerr.Unsupported("JSON_TABLE path %s", sqlparser.String(e))
	}
	var p json.PathParser
	jp, err := p.ParseBytes([]byte(lit.Val))
	if err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, "Invalid JSON path expression") {
			msg = "Invalid JSON path expression. " + msg
		}
		return nil, sqlerr.New(sqlerr.JSONPathText, sqlerror.SSClientError, "%s", msg)
	}
	return jp, nil
}

// jtResponseOf reads an ON EMPTY or ON ERROR clause (its DEFAULT is
// converted by defaults, once the column is known).
func jtResponseOf(r *sqlparser.JtOnResponse) (jtResponse, error) {
	if r == nil {
		return jtResponse{kind: sqlparser.NullJSONType}, nil
	}
	out := jtResponse{kind: r.ResponseType}
	if r.ResponseType == sqlparser.DefaultJSONType {
		lit, ok := r.Expr.(*sqlparser.Literal)
		if !ok || lit.Type != sqlparser.StrVal {
			return out, sqlerr.Unsupported("JSON_TABLE DEFAULT %s", sqlparser.String(r.Expr))
		}
		out.val = sqltypes.NewVarChar(lit.Val) // the JSON text, until defaults
	}
	return out, nil
}

// defaults converts the DEFAULT values of the columns under n: each must
// be JSON (a scalar, unless the column is JSON) that converts to the
// column's type, as MySQL checks before reading any row.
func (jt *jsonTable) defaults(n *jtNest) error {
	for _, c := range n.cols {
		if c.kind == jtNested {
			if err := jt.defaults(c.nest); err != nil {
				return err
			}
			continue
		}
		for _, r := range []*jtResponse{&c.onEmpty, &c.onError} {
			if r.kind != sqlparser.DefaultJSONType {
				continue
			}
			var p json.Parser
			v, err := p.ParseBytes(r.val.Raw())
			if err != nil || c.col.Type != sqltypes.TypeJSON && !jtScalar(v) {
				return sqlerr.New(sqlerror.ERInvalidDefault, sqlerror.SSClientError, "Invalid default value for '%s'", c.col.Name)
			}
			if r.val, err = jtConvert(c.col, v, 1); err != nil {
				return jtOutOfRange(c.col)
			}
		}
	}
	return nil
}

func jtScalar(v *json.Value) bool {
	t := v.Type()
	return t != json.TypeObject && t != json.TypeArray
}

func jtOutOfRange(col *catalog.Column) error {
	return sqlerr.New(sqlerr.JSONTableOutOfRange, "22003", "Value is out of range for JSON_TABLE's column '%s'", col.Name)
}

// compileTableFuncs compiles the arguments of the FROM clause's table
// functions (from as written) in the clause's scope and checks that each
// reads only tables written before it, joined by an inner or left join
// (MySQL's lateral rule). A table function that reads another table keeps
// the written join order.
func (b *fromBuilder) compileTableFuncs(c *compiler, sc *eval.Scope, offs []int, outer *eval.Outer, from []sqlparser.TableExpr) error {
	var written map[string]int
	for i, it := range b.items {
		jt := it.fn
		if jt == nil {
			continue
		}
		if plan.ContainsAggr(jt.arg) {
			return sqlerr.New(sqlerror.ERInvalidGroupFuncUse, sqlerror.SSUnknownSQLState, "Invalid use of group function")
		}
		if jtHasSubquery(jt.arg) {
			return sqlerr.New(sqlerror.ERWrongArguments, sqlerror.SSUnknownSQLState, "Incorrect arguments to JSON_TABLE")
		}
		if written == nil {
			written = writtenOrder(from)
		}
		if err := b.lateralRefs(i, jt, sc, offs, written); err != nil {
			return err
		}
		// The argument sees the columns of the items before it only (not
		// its own: MySQL resolves an unqualified name to the earlier
		// table's column).
		sub := *sc
		sub.Cols, sub.Where = sc.Cols[:offs[i]], "a table function argument"
		scope := c.Scope
		c.Scope = &sub
		arg, err := c.Compile(jt.arg)
		c.Scope = scope
		if err != nil {
			return err
		}
		set, err := plan.ReferencedSet(jt.arg, &sub, offs, outer)
		if err != nil {
			return err
		}
		if set != 0 {
			b.straight = true
		}
		it.tf = &tableFunc{jt: jt, arg: arg, constant: !jtReadsColumn(jt.arg) && plan.Deterministic(jt.arg)}
	}
	return nil
}

// tableFunc is a table function with its argument compiled (immutable,
// in the plan).
type tableFunc struct {
	jt  *jsonTable
	arg *eval.Expr
	// constant: the argument reads no column (of this query or an
	// enclosing one) and is deterministic, so the rows are computed once
	// per execution (joinLevel keeps them) and may be hashed for lookups.
	constant bool
}

// rows computes the table function's rows for the combined row cur.
func (tf *tableFunc) rows(ex *execCtx, cur Row) ([]Row, error) {
	return tf.jt.rows(ex, tf.arg, cur)
}

// jtReadsColumn reports whether e reads a column.
func jtReadsColumn(e sqlparser.Expr) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if _, ok := n.(*sqlparser.ColName); ok {
			found = true
		}
		return !found, nil
	}, e)
	return found
}

// lateralRefs checks that the argument of item i reads only columns of
// items written before it that also run before it: a table placed after it
// by a RIGHT JOIN (its NULL-extended side) cannot feed it.
func (b *fromBuilder) lateralRefs(i int, jt *jsonTable, sc *eval.Scope, offs []int, written map[string]int) error {
	var rerr error
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		cn, ok := n.(*sqlparser.ColName)
		if !ok || rerr != nil {
			return rerr == nil, nil
		}
		k, err := sc.Resolve(cn)
		if err != nil {
			return false, nil // an outer reference (compiled already)
		}
		j := plan.SourceOf(k, offs)
		if j < 0 {
			return false, nil
		}
		wj, wi := written[b.items[j].alias], written[jt.alias]
		switch {
		case wj < wi && j < i:
		case wj < wi:
			rerr = sqlerr.New(sqlerr.TableFuncRightJoin, sqlerror.SSUnknownSQLState, "INNER or LEFT JOIN must be used for LATERAL references made by '%s'", jt.alias)
		case !cn.Qualifier.IsEmpty():
			rerr = sqlerr.New(sqlerror.ERUnknownTable, "42S02", "Unknown table '%s' in a table function argument", cn.Qualifier.Name.String())
		default:
			rerr = sqlerr.New(sqlerror.ERBadFieldError, sqlerror.SSBadFieldError, "Unknown column '%s' in 'a table function argument'", cn.Name.String())
		}
		return false, nil
	}, jt.arg)
	return rerr
}

// writtenOrder numbers the tables of a FROM clause by alias in the order
// they are written (a RIGHT JOIN plans its right side first).
func writtenOrder(from []sqlparser.TableExpr) map[string]int {
	m := map[string]int{}
	var walk func(te sqlparser.TableExpr)
	walk = func(te sqlparser.TableExpr) {
		switch t := te.(type) {
		case *sqlparser.AliasedTableExpr:
			alias := t.As.String()
			if tn, ok := t.Expr.(sqlparser.TableName); ok && alias == "" {
				alias = tn.Name.String()
			}
			m[alias] = len(m)
		case *sqlparser.JSONTableExpr:
			m[t.Alias.String()] = len(m)
		case *sqlparser.JoinTableExpr:
			walk(t.LeftExpr)
			walk(t.RightExpr)
		case *sqlparser.ParenTableExpr:
			for _, x := range t.Exprs {
				walk(x)
			}
		}
	}
	for _, te := range from {
		walk(te)
	}
	return m
}

// jtColumnNames appends the names of the columns a COLUMNS clause defines,
// NESTED PATH columns included.
func jtColumnNames(names []string, defs []*sqlparser.JtColumnDefinition) []string {
	for _, d := range defs {
		switch {
		case d.JtOrdinal != nil:
			names = append(names, d.JtOrdinal.Name.String())
		case d.JtPath != nil:
			names = append(names, d.JtPath.Name.String())
		case d.JtNestedPath != nil:
			names = jtColumnNames(names, d.JtNestedPath.Columns)
		}
	}
	return names
}

func jtHasSubquery(e sqlparser.Expr) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if _, ok := n.(*sqlparser.Subquery); ok {
			found = true
		}
		return !found, nil
	}, e)
	return found
}

// formatJSONTable prints a JSON_TABLE as MySQL stores it in a view's
// definition (its own spacing and lower-case keywords).
func formatJSONTable(buf *sqlparser.TrackedBuffer, t *sqlparser.JSONTableExpr) {
	buf.Myprintf("json_table(%v, ", t.Expr)
	formatJTColumns(buf, t.Filter, t.Columns)
	buf.Myprintf(") %v", t.Alias)
}

func formatJTColumns(buf *sqlparser.TrackedBuffer, path sqlparser.Expr, defs []*sqlparser.JtColumnDefinition) {
	buf.Myprintf("%v columns (", path)
	for i, d := range defs {
		if i > 0 {
			buf.WriteString(", ")
		}
		switch {
		case d.JtOrdinal != nil:
			buf.Myprintf("%v for ordinality", d.JtOrdinal.Name)
		case d.JtPath != nil:
			p := d.JtPath
			buf.Myprintf("%v %s", p.Name, jtTypeText(p.Type))
			if p.JtColExists {
				buf.WriteString(" exists")
			}
			buf.Myprintf(" path %v", p.Path)
			formatJTResponse(buf, p.EmptyOnResponse, "empty")
			formatJTResponse(buf, p.ErrorOnResponse, "error")
		case d.JtNestedPath != nil:
			buf.WriteString("nested path ")
			formatJTColumns(buf, d.JtNestedPath.Path, d.JtNestedPath.Columns)
		}
	}
	buf.WriteByte(')')
}

func formatJTResponse(buf *sqlparser.TrackedBuffer, r *sqlparser.JtOnResponse, on string) {
	if r == nil {
		return
	}
	switch r.ResponseType {
	case sqlparser.ErrorJSONType:
		buf.WriteString(" error")
	case sqlparser.NullJSONType:
		buf.WriteString(" null")
	default:
		buf.Myprintf(" default %v", r.Expr)
	}
	buf.WriteString(" on " + on)
}

// jtTypeText is a column type as MySQL prints it (lower case).
func jtTypeText(ct *sqlparser.ColumnType) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(ct.Type))
	if ct.Length != nil {
		b.WriteString("(" + strconv.Itoa(*ct.Length))
		if ct.Scale != nil {
			b.WriteString("," + strconv.Itoa(*ct.Scale))
		}
		b.WriteByte(')')
	}
	if ct.Unsigned {
		b.WriteString(" unsigned")
	}
	if ct.Zerofill {
		b.WriteString(" zerofill")
	}
	if ct.Charset.Name != "" {
		b.WriteString(" character set " + strings.ToLower(ct.Charset.Name))
	}
	if ct.Charset.Binary {
		b.WriteString(" binary")
	}
	if ct.Options != nil && ct.Options.Collate != "" {
		b.WriteString(" collate " + strings.ToLower(ct.Options.Collate))
	}
	return b.String()
}
