package sql

import (
	"context"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// View merging (MySQL's ALGORITHM=MERGE, which UNDEFINED prefers): a view
// read by a SELECT is rewritten into the view's own table — the view's
// columns replaced by the expressions they select, its WHERE added to the
// query's — so the planner sees the base table and its indexes (EXPLAIN
// shows the table, not a derived one). Everything else reads the view as a
// derived table over its query (view.go).
//
// The rewrite is deliberately narrow, so that it can never change what a
// query means:
//   - the query's FROM clause is tables and views joined by JOIN … ON,
//     comma, STRAIGHT_JOIN, LEFT/RIGHT JOIN … ON (no USING, NATURAL or
//     derived tables; a view on the inner side of an outer join is not
//     merged), it has no subqueries (whose references into the view
//     would need the same rewrite), no WITH, no locking clause, no named
//     windows;
//   - every column it names resolves to exactly one FROM item by the
//     columns the catalog gives them (a qualified name by its table), and
//     a name in GROUP BY, HAVING or ORDER BY is not also a select-list
//     alias (alias resolution would differ);
//   - the view is mergeable (viewMergeable), not TEMPTABLE, without ORDER
//     BY, and reads one table or one view (merged in turn). When the
//     view's table name is taken by another FROM item, the table takes the
//     view's alias (if the view's query has no subqueries that could name
//     the table).
//
// Every select expression keeps the name it had. If the merged query does
// not plan (the view no longer resolves), it is planned unmerged, for the
// error MySQL gives (1356).

// maxMerges bounds the views merged into one SELECT.
const maxMerges = 64

// planSelectOuter plans a SELECT, merging the views it reads when it can;
// outer is the enclosing scope when the SELECT is a correlated subquery.
func (s *Session) planSelectOuter(ctx context.Context, sel *sqlparser.Select, outer *eval.Outer) (*selectPlan, error) {
	merged, err := s.mergeView(sel)
	if err != nil {
		return nil, err
	}
	if merged != nil {
		if p, err := s.planSelectBody(ctx, merged, outer); err == nil {
			return p, nil
		}
		// Planned again unmerged, without merging below either: a failure
		// deep in nested views costs two plannings, not two per level.
		saved := s.noMerge
		s.noMerge = true
		defer func() { s.noMerge = saved }()
	}
	return s.planSelectBody(ctx, sel, outer)
}

// mergeItem is a table or view of the FROM clause of a SELECT being
// merged.
type mergeItem struct {
	alias string
	cols  []string
	view  *catalog.View // nil for a table
	// lineage lists the views this item was merged out of (recursion).
	lineage []*catalog.View
	// nullable: the inner side of an outer join, never merged (its WHERE
	// would belong to the join condition, and expressions of its columns
	// are not NULL in the rows the join makes up).
	nullable bool
}

// mergeView returns the merged form of sel (a copy), or nil when sel reads
// no view that can be merged. Under LOCK TABLES views are not merged, so
// that viewSource checks each view named was locked.
func (s *Session) mergeView(sel *sqlparser.Select) (*sqlparser.Select, error) {
	if s.noMerge || s.tl.locked || sel.With != nil || sel.Lock != sqlparser.NoLock || sel.Into != nil || sel.SelectExprs == nil || len(sel.Windows) > 0 || len(sel.From) == 0 {
		return nil, nil
	}
	if hasSubquery(sel) {
		return nil, nil
	}
	// lineage[i]: the views FROM item i was merged out of (a merge
	// replaces one item by one, so positions are stable).
	lineage := map[int][]*catalog.View{}
	cur := sel
	for n := 0; n < maxMerges; n++ {
		items, ok := s.mergeItems(cur.From, lineage)
		if !ok {
			break
		}
		merged := false
		for target, it := range items {
			if it.view == nil || it.view.Algorithm == "TEMPTABLE" || it.nullable {
				continue
			}
			for _, x := range it.lineage {
				if x == it.view {
					return nil, sqlerr.New(sqlerr.ViewRecursive, sqlerror.SSUnknownSQLState, "`%s`.`%s` contains view recursion", it.view.DB, it.view.Name)
				}
			}
			if len(it.lineage) >= maxViewDepth {
				return nil, sqlerr.New(sqlerr.ViewRecursive, sqlerror.SSUnknownSQLState, "`%s`.`%s` contains view recursion", it.view.DB, it.view.Name)
			}
			next, err := s.mergeOne(cur, items, target)
			if err != nil {
				return nil, err
			}
			if next != nil {
				lineage[target] = append(append([]*catalog.View(nil), it.lineage...), it.view)
				cur, merged = next, true
				break
			}
		}
		if !merged {
			break
		}
	}
	if cur == sel {
		return nil, nil
	}
	return cur, nil
}

// mergeItems lists the FROM items of a SELECT whose FROM clause the merge
// handles (see the top of this file); ok is false otherwise.
func (s *Session) mergeItems(from []sqlparser.TableExpr, lineage map[int][]*catalog.View) (items []mergeItem, ok bool) {
	var add func(te sqlparser.TableExpr, nullable bool) bool
	add = func(te sqlparser.TableExpr, nullable bool) bool {
		switch t := te.(type) {
		case *sqlparser.AliasedTableExpr:
			tn, isName := t.Expr.(sqlparser.TableName)
			if !isName || t.Hints != nil || len(t.Partitions) > 0 || len(t.Columns) > 0 {
				return false
			}
			if tn.Qualifier.IsEmpty() && (tn.Name.String() == "dual" || s.lookupCTE(tn.Name.String()) != nil) {
				return false
			}
			db := tn.Qualifier.String()
			if db == "" {
				db = s.DB
			}
			if db == "" || isSystemSchema(db) {
				return false
			}
			it := mergeItem{alias: tn.Name.String(), lineage: lineage[len(items)], nullable: nullable}
			if t.As.NotEmpty() {
				it.alias = t.As.String()
			}
			def := s.eng.Cat.Table(db, tn.Name.String())
			if s.inView == 0 {
				def = s.tableDef(db, tn.Name.String()) // temporary tables first
			}
			if def != nil {
				for _, c := range def.Columns {
					it.cols = append(it.cols, c.Name)
				}
			} else if v := s.lookupView(tn); v != nil {
				it.view, it.cols = v, v.Columns
			} else {
				return false
			}
			for _, x := range items {
				if x.alias == it.alias {
					return false // 1066: let the planner say so
				}
			}
			items = append(items, it)
			return true
		case *sqlparser.JoinTableExpr:
			if t.Condition != nil && len(t.Condition.Using) > 0 {
				return false
			}
			switch t.Join {
			case sqlparser.NormalJoinType, sqlparser.StraightJoinType:
				return add(t.LeftExpr, nullable) && add(t.RightExpr, nullable)
			case sqlparser.LeftJoinType:
				return add(t.LeftExpr, nullable) && add(t.RightExpr, true)
			case sqlparser.RightJoinType:
				return add(t.LeftExpr, true) && add(t.RightExpr, nullable)
			}
			return false
		case *sqlparser.ParenTableExpr:
			for _, x := range t.Exprs {
				if !add(x, nullable) {
					return false
				}
			}
			return true
		}
		return false
	}
	for _, te := range from {
		if !add(te, false) {
			return nil, false
		}
	}
	return items, true
}

// colOwner returns the index of the FROM item a column reference names,
// -1 when it names none or several (the merge does not apply).
func colOwner(items []mergeItem, c *sqlparser.ColName) int {
	if !c.Qualifier.Qualifier.IsEmpty() {
		return -1
	}
	owner := -1
	for i, it := range items {
		if !c.Qualifier.IsEmpty() && c.Qualifier.Name.String() != it.alias {
			continue
		}
		for _, n := range it.cols {
			if strings.EqualFold(n, c.Name.String()) {
				if owner >= 0 {
					return -1
				}
				owner = i
				break
			}
		}
	}
	return owner
}

// mergeOne merges the view of items[target] into a copy of sel; nil when
// the rewrite does not apply.
func (s *Session) mergeOne(sel *sqlparser.Select, items []mergeItem, target int) (*sqlparser.Select, error) {
	v, alias := items[target].view, items[target].alias
	vsel, err := s.parseViewQuery(v)
	if err != nil {
		return nil, nil
	}
	body, ok := vsel.(*sqlparser.Select)
	if !ok || !viewMergeable(body) || len(body.From) != 1 || len(body.OrderBy) > 0 || body.Lock != sqlparser.NoLock {
		return nil, nil
	}
	inner, ok := body.From[0].(*sqlparser.AliasedTableExpr)
	if !ok || len(body.SelectExprs.Exprs) != len(v.Columns) {
		return nil, nil
	}
	innerName, ok := inner.Expr.(sqlparser.TableName)
	if !ok {
		return nil, nil
	}
	if s.inView == 0 && s.tempTable(innerName.Qualifier.String(), innerName.Name.String()) != nil {
		// The merged query would read the temporary table.
		return nil, nil
	}
	innerAlias := innerName.Name.String()
	if inner.As.NotEmpty() {
		innerAlias = inner.As.String()
	}
	// The table keeps its name unless another FROM item has it.
	newAlias := innerAlias
	for i, it := range items {
		if i != target && it.alias == innerAlias {
			if hasSubquery(body) {
				return nil, nil
			}
			newAlias = alias
		}
	}

	// Every column the query names must resolve to one FROM item, and no
	// GROUP BY, HAVING or ORDER BY name may also be a select alias.
	aliases := map[string]bool{}
	for _, e := range sel.SelectExprs.Exprs {
		if ae, ok := e.(*sqlparser.AliasedExpr); ok && ae.As.NotEmpty() {
			aliases[ae.As.Lowered()] = true
		}
	}
	resolves := true
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if c, ok := n.(*sqlparser.ColName); ok && colOwner(items, c) < 0 {
			resolves = false
		}
		return resolves, nil
	}, sel)
	if !resolves {
		return nil, nil
	}
	for _, clause := range []sqlparser.SQLNode{sel.GroupBy, sel.Having, sel.OrderBy} {
		clash := false
		_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
			if c, ok := n.(*sqlparser.ColName); ok && c.Qualifier.IsEmpty() && aliases[c.Name.Lowered()] {
				clash = true
			}
			return !clash, nil
		}, clause)
		if clash {
			return nil, nil
		}
	}
	if err := s.checkViewAccess(v, vsel); err != nil {
		return nil, err
	}

	// The view's expressions, over the table under its new alias.
	retable := func(e sqlparser.Expr) sqlparser.Expr {
		e = sqlparser.Clone(e)
		if newAlias == innerAlias {
			return e
		}
		return sqlparser.Rewrite(e, func(cur *sqlparser.Cursor) bool {
			if c, ok := cur.Node().(*sqlparser.ColName); ok && c.Qualifier.Qualifier.IsEmpty() && c.Qualifier.Name.String() == innerAlias {
				c.Qualifier.Name = sqlparser.NewIdentifierCS(newAlias)
			}
			return true
		}, nil).(sqlparser.Expr)
	}
	cols := map[string]sqlparser.Expr{}
	for i, e := range body.SelectExprs.Exprs {
		cols[strings.ToLower(v.Columns[i])] = retable(e.(*sqlparser.AliasedExpr).Expr)
	}
	// subst replaces the view's columns by their expressions and
	// qualifies the other unqualified columns with their table, which the
	// view's table might make ambiguous.
	subst := func(e sqlparser.Expr) sqlparser.Expr {
		return sqlparser.Rewrite(sqlparser.Clone(e), func(cur *sqlparser.Cursor) bool {
			if c, ok := cur.Node().(*sqlparser.ColName); ok {
				switch owner := colOwner(items, c); {
				case owner == target:
					cur.Replace(sqlparser.Clone(cols[c.Name.Lowered()]))
				case c.Qualifier.IsEmpty():
					c.Qualifier = sqlparser.TableName{Name: sqlparser.NewIdentifierCS(items[owner].alias)}
				}
				return false
			}
			return true
		}, nil).(sqlparser.Expr)
	}
	// changes reports whether subst changes e.
	changes := func(e sqlparser.Expr) bool {
		found := false
		_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
			if c, ok := n.(*sqlparser.ColName); ok && (c.Qualifier.IsEmpty() || colOwner(items, c) == target) {
				found = true
			}
			return !found, nil
		}, e)
		return found
	}

	out := sqlparser.CloneRefOfSelect(sel)
	var exprs []sqlparser.SelectExpr
	for _, e := range out.SelectExprs.Exprs {
		switch x := e.(type) {
		case *sqlparser.StarExpr:
			if !x.TableName.Qualifier.IsEmpty() {
				return nil, nil
			}
			for i, it := range items {
				if !x.TableName.IsEmpty() && x.TableName.Name.String() != it.alias {
					continue
				}
				if i != target {
					exprs = append(exprs, &sqlparser.StarExpr{TableName: sqlparser.TableName{Name: sqlparser.NewIdentifierCS(it.alias)}})
					continue
				}
				for j, c := range v.Columns {
					exprs = append(exprs, &sqlparser.AliasedExpr{Expr: retable(body.SelectExprs.Exprs[j].(*sqlparser.AliasedExpr).Expr), As: sqlparser.NewIdentifierCI(c)})
				}
			}
		case *sqlparser.AliasedExpr:
			if changes(x.Expr) {
				// The expression keeps the name its text gave it.
				if x.As.IsEmpty() {
					x.As = sqlparser.NewIdentifierCI(s.exprName(x.Expr))
				}
				x.Expr = subst(x.Expr)
			}
			exprs = append(exprs, x)
		default:
			return nil, nil
		}
	}
	out.SelectExprs = &sqlparser.SelectExprs{Exprs: exprs}
	if out.Where != nil {
		out.Where.Expr = subst(out.Where.Expr)
	}
	if body.Where != nil {
		out.Where = &sqlparser.Where{Type: sqlparser.WhereClause, Expr: andExpr(retable(body.Where.Expr), whereExpr(out.Where))}
	}
	if out.GroupBy != nil {
		for i, e := range out.GroupBy.Exprs {
			out.GroupBy.Exprs[i] = subst(e)
		}
	}
	if out.Having != nil {
		out.Having.Expr = subst(out.Having.Expr)
	}
	for _, o := range out.OrderBy {
		o.Expr = subst(o.Expr)
	}
	// The FROM clause: the view's item becomes its table (the items keep
	// their positions); join conditions name the view's columns through
	// their expressions.
	repl := sqlparser.Clone(inner)
	if newAlias != innerAlias {
		repl.As = sqlparser.NewIdentifierCS(newAlias)
	}
	pos := 0
	var fix func(te sqlparser.TableExpr) sqlparser.TableExpr
	fix = func(te sqlparser.TableExpr) sqlparser.TableExpr {
		switch t := te.(type) {
		case *sqlparser.AliasedTableExpr:
			pos++
			if pos-1 == target {
				return repl
			}
		case *sqlparser.JoinTableExpr:
			t.LeftExpr, t.RightExpr = fix(t.LeftExpr), fix(t.RightExpr)
			if t.Condition != nil && t.Condition.On != nil {
				t.Condition.On = subst(t.Condition.On)
			}
		case *sqlparser.ParenTableExpr:
			for i := range t.Exprs {
				t.Exprs[i] = fix(t.Exprs[i])
			}
		}
		return te
	}
	for i := range out.From {
		out.From[i] = fix(out.From[i])
	}
	return out, nil
}

func whereExpr(w *sqlparser.Where) sqlparser.Expr {
	if w == nil {
		return nil
	}
	return w.Expr
}

// hasSubquery reports whether a statement holds a subquery or a derived
// table.
func hasSubquery(n sqlparser.SQLNode) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch n.(type) {
		case *sqlparser.Subquery, *sqlparser.DerivedTable, *sqlparser.ExistsExpr:
			found = true
		}
		return !found, nil
	}, n)
	return found
}
