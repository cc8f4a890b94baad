package sql

import (
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/privilege"
)

// Column checks. MySQL checks the privilege on every column a statement
// reads or writes (1143) unless the account holds it on the table or above.
// colWalker resolves every column reference of a statement the way name
// resolution does — query block by query block, innermost first, then the
// outer blocks of a correlated subquery — and adds a column Need for each
// reference that denotes a base table's column:
//
//   - qualified names resolve to the FROM item with that alias;
//   - unqualified names to every base table of the nearest block having
//     the column (several when ambiguous: the check errs on the safe
//     side), derived tables and CTE references absorbing the names their
//     select lists define; a derived table whose columns are unknown
//     (SELECT *) lets the search go on outward as well;
//   - ORDER BY and HAVING names that are select-list aliases are not
//     column reads, nor are GROUP BY names no FROM item of the block has
//     that are aliases; VALUES(col) and the row alias of INSERT … ON DUPLICATE
//     KEY UPDATE name the new row;
//   - SELECT * and t.* read every column of the base tables they cover;
//     USING and NATURAL joins read the join columns of both sides;
//   - derived table and CTE bodies are checked as queries of their own, so
//     the columns they read need SELECT whether or not the outer query
//     uses them.
//
// The table-level needs of the same statement carry Need.Columns: a
// privilege held on some column of the table passes them, the columns
// being checked here.

// colItem is a FROM item of a query block.
type colItem struct {
	// alias is the name references qualify columns with.
	alias string
	// base: a base table (or view) db.table whose columns need privileges;
	// def is its definition (nil for a view or a missing table).
	base      bool
	db, table string
	def       *catalog.Table
	// cols are a derived table's (or CTE's) column names; known is false
	// when they cannot be told (SELECT *, system tables).
	cols  []string
	known bool
}

func (it *colItem) has(col string) bool {
	if it.base && it.def != nil {
		for i := range it.def.Columns {
			if strings.EqualFold(it.def.Columns[i].Name, col) {
				return true
			}
		}
		return false
	}
	if it.base {
		return true // a view: assume it has the column
	}
	for _, c := range it.cols {
		if strings.EqualFold(c, col) {
			return true
		}
	}
	return false
}

// colScope is a query block's name scope.
type colScope struct {
	parent  *colScope
	items   []*colItem
	aliases []string
}

// privCTE is a CTE in scope.
type privCTE struct {
	name  string
	cols  []string
	known bool
}

// refMode says how a clause's names resolve.
type refMode uint8

const (
	refPlain refMode = iota
	// refAlias: select-list aliases first (ORDER BY, HAVING).
	refAlias
	// refGroup: the FROM columns first, then select-list aliases, then
	// the outer query blocks (GROUP BY).
	refGroup
	// refOnDup: VALUES(col) and the row alias name the new row.
	refOnDup
)

type colWalker struct {
	n        *needs
	ctes     []privCTE
	rowAlias string
}

// columns adds the column needs of node (a statement or an expression).
func (n *needs) columns(node sqlparser.SQLNode) {
	w := &colWalker{n: n}
	w.stmt(node, nil)
}

func (w *colWalker) stmt(node sqlparser.SQLNode, parent *colScope) {
	switch x := node.(type) {
	case nil:
	case *sqlparser.Select:
		if x != nil {
			w.with(x.With, parent, func() { w.selectBlock(x, parent) })
		}
	case *sqlparser.Union:
		if x != nil {
			w.with(x.With, parent, func() {
				w.stmt(x.Left, parent)
				w.stmt(x.Right, parent)
				// ORDER BY and LIMIT name the result's columns; only their
				// subqueries read tables.
				w.subqueries(x.OrderBy, parent)
				w.subqueries(x.Limit, parent)
			})
		}
	case *sqlparser.Update:
		if x != nil {
			w.with(x.With, parent, func() { w.update(x, parent) })
		}
	case *sqlparser.Delete:
		if x != nil {
			w.with(x.With, parent, func() { w.delete(x, parent) })
		}
	default:
		w.expr(node, parent, refPlain)
	}
}

// with runs body with the CTEs of a WITH clause in scope, checking their
// definitions: a WITH RECURSIVE's names are visible in every definition,
// otherwise a definition sees only the ones before it.
func (w *colWalker) with(with *sqlparser.With, parent *colScope, body func()) {
	depth := len(w.ctes)
	if with != nil {
		def := func(c *sqlparser.CommonTableExpr) privCTE {
			d := privCTE{name: c.ID.String()}
			d.cols, d.known = declaredColumns(c.Columns, c.Subquery)
			return d
		}
		if with.Recursive {
			for _, c := range with.CTEs {
				w.ctes = append(w.ctes, def(c))
			}
		}
		for _, c := range with.CTEs {
			w.stmt(c.Subquery, parent)
			if !with.Recursive {
				w.ctes = append(w.ctes, def(c))
			}
		}
	}
	body()
	w.ctes = w.ctes[:depth]
}

// cte returns the CTE a table name denotes, if any.
func (w *colWalker) cte(name string) *privCTE {
	for i := len(w.ctes) - 1; i >= 0; i-- {
		if w.ctes[i].name == name {
			return &w.ctes[i]
		}
	}
	return nil
}

// queryColumns returns the column names of a query's result; known is
// false when they cannot be told without expanding a star.
// declaredColumns returns the column names of a derived table or CTE: its
// column list when it has one, else what queryColumns finds in its query.
func declaredColumns(list sqlparser.Columns, q sqlparser.TableStatement) ([]string, bool) {
	if len(list) == 0 {
		return queryColumns(q)
	}
	cols := make([]string, len(list))
	for i, c := range list {
		cols[i] = c.String()
	}
	return cols, true
}

func queryColumns(q sqlparser.TableStatement) ([]string, bool) {
	switch x := q.(type) {
	case *sqlparser.Select:
		var out []string
		if x.SelectExprs == nil {
			return nil, false
		}
		for _, e := range x.SelectExprs.Exprs {
			switch a := e.(type) {
			case *sqlparser.AliasedExpr:
				switch {
				case !a.As.IsEmpty():
					out = append(out, a.As.String())
				default:
					if c, ok := a.Expr.(*sqlparser.ColName); ok {
						out = append(out, c.Name.String())
					} else {
						out = append(out, sqlparser.String(a.Expr))
					}
				}
			default:
				return nil, false
			}
		}
		return out, true
	case *sqlparser.Union:
		return queryColumns(x.Left)
	}
	return nil, false
}

// joinCond is a join condition of a FROM clause, checked after the select
// list (MySQL resolves ON after the fields).
type joinCond struct {
	on          sqlparser.Expr
	using       sqlparser.Columns
	natural     bool
	left, right []*colItem
}

// from adds the items of a FROM clause to sc, checking derived tables,
// and returns the join conditions.
func (w *colWalker) from(exprs []sqlparser.TableExpr, sc *colScope) []joinCond {
	var conds []joinCond
	var walk func(te sqlparser.TableExpr)
	walk = func(te sqlparser.TableExpr) {
		switch x := te.(type) {
		case *sqlparser.AliasedTableExpr:
			w.aliased(x, sc)
		case *sqlparser.JoinTableExpr:
			start := len(sc.items)
			walk(x.LeftExpr)
			mid := len(sc.items)
			walk(x.RightExpr)
			c := joinCond{left: sc.items[start:mid:mid], right: sc.items[mid:len(sc.items):len(sc.items)]}
			switch x.Join {
			case sqlparser.NaturalJoinType, sqlparser.NaturalLeftJoinType, sqlparser.NaturalRightJoinType:
				c.natural = true
			}
			if x.Condition != nil {
				c.on, c.using = x.Condition.On, x.Condition.Using
			}
			conds = append(conds, c)
		case *sqlparser.ParenTableExpr:
			for _, e := range x.Exprs {
				walk(e)
			}
		case *sqlparser.JSONTableExpr:
			w.expr(x.Expr, sc, refPlain)
			sc.items = append(sc.items, &colItem{alias: x.Alias.String(), cols: jtColumnNames(nil, x.Columns), known: true})
		}
	}
	for _, te := range exprs {
		walk(te)
	}
	return conds
}

func (w *colWalker) aliased(a *sqlparser.AliasedTableExpr, sc *colScope) {
	alias := a.As.String()
	switch e := a.Expr.(type) {
	case sqlparser.TableName:
		name := e.Name.String()
		if alias == "" {
			alias = name
		}
		if e.Qualifier.IsEmpty() {
			if d := w.cte(name); d != nil {
				sc.items = append(sc.items, &colItem{alias: alias, cols: d.cols, known: d.known})
				return
			}
			if strings.EqualFold(name, "dual") {
				return
			}
		}
		db, ok := w.n.s.nameDB(e.Qualifier)
		if !ok || worldReadable(db, name) || isSystemSchema(db) && w.n.s.tableDef(db, name) == nil {
			// No database (1046) or a system table: nothing to check.
			sc.items = append(sc.items, &colItem{alias: alias})
			return
		}
		sc.items = append(sc.items, &colItem{alias: alias, base: true, db: db, table: name, def: w.n.s.tableDef(db, name)})
	case *sqlparser.DerivedTable:
		// A derived table sees the outer query; a LATERAL one also the
		// items before it.
		inner := sc.parent
		if e.Lateral {
			inner = sc
		}
		w.stmt(e.Select, inner)
		it := &colItem{alias: alias}
		it.cols, it.known = declaredColumns(a.Columns, e.Select)
		sc.items = append(sc.items, it)
	}
}

// selectBlock checks a query block's column references: select list, join
// conditions, WHERE, GROUP BY, HAVING, windows, ORDER BY, LIMIT.
func (w *colWalker) selectBlock(sel *sqlparser.Select, parent *colScope) {
	sc := &colScope{parent: parent}
	conds := w.from(sel.From, sc)
	if sel.SelectExprs != nil {
		for _, e := range sel.SelectExprs.Exprs {
			switch x := e.(type) {
			case *sqlparser.StarExpr:
				w.star(x, sc)
			case *sqlparser.AliasedExpr:
				w.expr(x.Expr, sc, refPlain)
				if !x.As.IsEmpty() {
					sc.aliases = append(sc.aliases, x.As.String())
				}
			default:
				w.expr(x, sc, refPlain)
			}
		}
	}
	w.joins(conds, sc)
	if sel.Where != nil {
		w.expr(sel.Where, sc, refPlain)
	}
	if sel.GroupBy != nil {
		w.expr(sel.GroupBy, sc, refGroup)
	}
	if sel.Having != nil {
		w.expr(sel.Having, sc, refAlias)
	}
	if len(sel.Windows) > 0 {
		w.expr(sel.Windows, sc, refPlain)
	}
	if len(sel.OrderBy) > 0 {
		w.expr(sel.OrderBy, sc, refAlias)
	}
	if sel.Limit != nil {
		w.expr(sel.Limit, sc, refPlain)
	}
}

// joins checks join conditions: ON expressions, and the columns USING and
// NATURAL joins compare on both sides.
func (w *colWalker) joins(conds []joinCond, sc *colScope) {
	for _, c := range conds {
		if c.on != nil {
			w.expr(c.on, sc, refPlain)
		}
		var common []string
		switch {
		case len(c.using) > 0:
			for _, u := range c.using {
				common = append(common, u.String())
			}
		case c.natural:
			common = naturalColumns(c.left, c.right)
		}
		for _, col := range common {
			for _, it := range append(append([]*colItem(nil), c.left...), c.right...) {
				if it.base && it.has(col) {
					w.need(it, privilege.Select, col)
				}
			}
		}
	}
}

// naturalColumns returns the column names both sides of a NATURAL join
// have; a side whose columns are unknown is taken to have all of the
// other side's.
func naturalColumns(left, right []*colItem) []string {
	names := func(items []*colItem) (out []string, all bool) {
		for _, it := range items {
			switch {
			case it.base && it.def != nil:
				for i := range it.def.Columns {
					out = append(out, it.def.Columns[i].Name)
				}
			case it.known:
				out = append(out, it.cols...)
			default:
				all = true
			}
		}
		return out, all
	}
	l, lall := names(left)
	r, rall := names(right)
	in := func(list []string, s string) bool {
		for _, x := range list {
			if strings.EqualFold(x, s) {
				return true
			}
		}
		return false
	}
	var out []string
	for _, s := range l {
		if rall || in(r, s) {
			out = append(out, s)
		}
	}
	if lall {
		out = append(out, r...)
	}
	return out
}

// star checks * or t.*: every column of the base tables it covers.
func (w *colWalker) star(x *sqlparser.StarExpr, sc *colScope) {
	q := x.TableName.Name.String()
	for _, it := range sc.items {
		if q != "" && (it.alias != q || !x.TableName.Qualifier.IsEmpty() && x.TableName.Qualifier.String() != it.db) {
			continue
		}
		if !it.base {
			continue
		}
		if it.def == nil {
			// A view's columns are not known here: its table privilege
			// is needed.
			w.n.add(privilege.OnTable(privilege.Select, it.db, it.table))
			continue
		}
		for i := range it.def.Columns {
			w.need(it, privilege.Select, it.def.Columns[i].Name)
		}
	}
}

// expr checks the column references of an expression (or clause) in sc;
// subqueries are checked as query blocks inside sc.
func (w *colWalker) expr(node sqlparser.SQLNode, sc *colScope, mode refMode) {
	_ = sqlparser.Walk(func(x sqlparser.SQLNode) (bool, error) {
		switch c := x.(type) {
		case *sqlparser.ColName:
			w.ref(c, sc, mode, privilege.Select)
			return false, nil
		case *sqlparser.Subquery:
			w.stmt(c.Select, sc)
			return false, nil
		case *sqlparser.DerivedTable:
			w.stmt(c.Select, sc)
			return false, nil
		case *sqlparser.Select, *sqlparser.Union:
			w.stmt(c, sc)
			return false, nil
		case *sqlparser.ValuesFuncExpr:
			if mode == refOnDup {
				return false, nil
			}
		}
		return true, nil
	}, node)
}

// subqueries checks only the subqueries of node (a UNION's ORDER BY).
func (w *colWalker) subqueries(node sqlparser.SQLNode, sc *colScope) {
	if node == nil {
		return
	}
	_ = sqlparser.Walk(func(x sqlparser.SQLNode) (bool, error) {
		if s, ok := x.(*sqlparser.Subquery); ok {
			w.stmt(s.Select, sc)
			return false, nil
		}
		return true, nil
	}, node)
}

// ref resolves a column reference and adds p on the column(s) it denotes.
func (w *colWalker) ref(c *sqlparser.ColName, sc *colScope, mode refMode, p privilege.Priv) {
	col := c.Name.String()
	if c.Qualifier.IsEmpty() {
		if mode == refAlias && isAlias(sc, col) {
			return
		}
		for s := sc; s != nil; s = s.parent {
			found := false
			for _, it := range s.items {
				if it.has(col) {
					found = true
					if it.base {
						w.need(it, p, col)
					}
				}
			}
			if found || mode == refGroup && s == sc && isAlias(sc, col) {
				return
			}
		}
		return
	}
	q := c.Qualifier.Name.String()
	if mode == refOnDup && w.rowAlias != "" && q == w.rowAlias {
		return
	}
	for s := sc; s != nil; s = s.parent {
		found := false
		for _, it := range s.items {
			if !strings.EqualFold(it.alias, q) {
				continue
			}
			if it.base && !c.Qualifier.Qualifier.IsEmpty() && !strings.EqualFold(c.Qualifier.Qualifier.String(), it.db) {
				continue
			}
			found = true
			if it.base {
				w.need(it, p, col)
			}
		}
		if found {
			return
		}
	}
}

// isAlias reports whether name is a select-list alias of sc's block.
func isAlias(sc *colScope, name string) bool {
	for _, a := range sc.aliases {
		if strings.EqualFold(a, name) {
			return true
		}
	}
	return false
}

// need adds p on column col of a base table item.
func (w *colWalker) need(it *colItem, p privilege.Priv, col string) {
	w.n.add(privilege.OnColumns(p, it.db, it.table, col))
}

// update checks an UPDATE: UPDATE on the assigned columns, SELECT on the
// columns read by SET, join conditions, WHERE, ORDER BY and LIMIT.
func (w *colWalker) update(st *sqlparser.Update, parent *colScope) {
	sc := &colScope{parent: parent}
	conds := w.from(st.TableExprs, sc)
	for _, e := range st.Exprs {
		w.ref(e.Name, sc, refPlain, privilege.Update)
	}
	for _, e := range st.Exprs {
		w.expr(e.Expr, sc, refPlain)
	}
	w.joins(conds, sc)
	w.clauses(sc, st.Where, st.OrderBy, st.Limit)
}

// delete checks a DELETE: SELECT on the columns read by join conditions,
// WHERE, ORDER BY and LIMIT.
func (w *colWalker) delete(st *sqlparser.Delete, parent *colScope) {
	sc := &colScope{parent: parent}
	conds := w.from(st.TableExprs, sc)
	w.joins(conds, sc)
	w.clauses(sc, st.Where, st.OrderBy, st.Limit)
}

func (w *colWalker) clauses(sc *colScope, where *sqlparser.Where, order sqlparser.OrderBy, limit *sqlparser.Limit) {
	if where != nil {
		w.expr(where, sc, refPlain)
	}
	if len(order) > 0 {
		w.expr(order, sc, refPlain)
	}
	if limit != nil {
		w.expr(limit, sc, refPlain)
	}
}

// insertColumns adds what an INSERT needs on the target's columns: INSERT
// on the columns listed (all of them without a list), UPDATE on the
// columns ON DUPLICATE KEY UPDATE assigns and SELECT on the target columns
// its expressions read.
func (n *needs) insertColumns(st *sqlparser.Insert, tn sqlparser.TableName) {
	db, ok := n.s.nameDB(tn.Qualifier)
	if !ok || isSystemSchema(db) {
		return
	}
	name := tn.Name.String()
	it := &colItem{alias: name, base: true, db: db, table: name, def: n.s.tableDef(db, name)}
	if as := st.Table.As.String(); as != "" {
		it.alias = as
	}
	w := &colWalker{n: n}
	if len(st.Columns) > 0 {
		for _, c := range st.Columns {
			w.need(it, privilege.Insert, c.String())
		}
	} else if it.def != nil {
		for i := range it.def.Columns {
			w.need(it, privilege.Insert, it.def.Columns[i].Name)
		}
	} else {
		n.add(privilege.OnTable(privilege.Insert, db, name))
	}
	sc := &colScope{items: []*colItem{it}}
	if rows, ok := st.Rows.(sqlparser.Values); ok {
		// A VALUES row may name the new row's columns set before it:
		// MySQL resolves them with SELECT.
		w.expr(rows, sc, refPlain)
	}
	if len(st.OnDup) == 0 {
		return
	}
	if st.RowAlias != nil {
		w.rowAlias = st.RowAlias.TableName.String()
	}
	for _, e := range st.OnDup {
		w.ref(e.Name, sc, refPlain, privilege.Update)
	}
	for _, e := range st.OnDup {
		w.expr(e.Expr, sc, refOnDup)
	}
}
