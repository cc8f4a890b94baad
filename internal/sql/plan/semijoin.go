package plan

import (
	"strconv"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
)

// Semi-joins and anti-joins. A WHERE conjunct `EXISTS (subquery)`,
// `NOT EXISTS (subquery)` or `x IN (subquery)` whose subquery reads one
// stored table with no grouping, aggregate, LIMIT or nested subquery is
// planned as a join with that table instead of a subquery evaluated per
// row (MySQL 8's semi-join and antijoin transformations):
//
//   - the subquery's WHERE conditions (and, for IN, `x = selected value`)
//     become the table's join conditions, so the table takes part in access
//     path choice — index lookups by the enclosing rows' values, or a hash
//     join when no index serves;
//   - a semi-join level stops at the first matching row (MySQL's FirstMatch
//     strategy: an enclosing row is never repeated); an anti-join level
//     rejects the enclosing row on a match and otherwise passes it on with
//     the table's columns NULL, like LEFT JOIN ... WHERE the match is
//     absent (EXPLAIN: "Not exists").
//
// The table is placed right after the last table its conditions read
// (first when it reads none), so it filters as early as it can. Its columns
// are hidden from the enclosing query: they are added to the scope under a
// name no query can write, and every reference of the subquery's own
// columns is rewritten to it, so unqualified names of the enclosing query
// resolve as before and `SELECT *` does not show them.
//
// Not converted (the subquery is evaluated as before, with adaptive
// decorrelation): NOT IN (its NULL rules differ from an anti-join), a
// conjunct under OR or NOT, locking reads, an uncorrelated `col IN
// (SELECT ...)` whose column leads an index of its table (the subquery's
// values then drive that index, internal/sql/compat_insub.go), and any subquery with
// more than one table.

// SemiKind says how a FROM item joins: a plain table, a semi-join or an
// anti-join.
type SemiKind uint8

const (
	SemiNone SemiKind = iota
	SemiJoin
	AntiJoin
)

// semiAliasPrefix starts the scope name of a semi-joined table: a NUL byte
// no identifier of a query can contain.
const semiAliasPrefix = "\x00semi"

// SemiAliasPrefix starts the scope name of a semi-joined table: a NUL byte
// no identifier of a query can contain.
const SemiAliasPrefix = "\x00semi"

// SemiJoinCandidate reports whether a WHERE conjunct can become a semi- or
// anti-join: EXISTS, NOT EXISTS or x IN over a subquery semiJoinable
// accepts. It returns the subquery's SELECT, the kind and, for IN, the
// enclosing query's value (a ValTuple for a row).
func SemiJoinCandidate(cd sqlparser.Expr) (sel *sqlparser.Select, kind SemiKind, left sqlparser.Expr, ok bool) {
	var sub *sqlparser.Subquery
	kind = SemiJoin
	switch x := cd.(type) {
	case *sqlparser.ExistsExpr:
		sub = x.Subquery
	case *sqlparser.NotExpr:
		e, isExists := x.Expr.(*sqlparser.ExistsExpr)
		if !isExists {
			return nil, SemiNone, nil, false
		}
		sub, kind = e.Subquery, AntiJoin
	case *sqlparser.ComparisonExpr:
		s, isSub := x.Right.(*sqlparser.Subquery)
		if !isSub || x.Operator != sqlparser.InOp || eval.HasSubquery(x.Left) {
			return nil, SemiNone, nil, false
		}
		sub, left = s, x.Left
	default:
		return nil, SemiNone, nil, false
	}
	sel, ok = sub.Select.(*sqlparser.Select)
	if !ok || !semiJoinable(sel) {
		return nil, SemiNone, nil, false
	}
	return sel, kind, left, true
}

// SemiTable is the table a WHERE conjunct becomes when it is a semi- or
// anti-join.
type SemiTable struct {
	Def   *catalog.Table
	Alias string
	// ScopeName is the name its columns are in the scope under (starting
	// with SemiAliasPrefix, so no query can name them).
	ScopeName string
	Hints     IndexHints
	// On are its join conditions: the subquery's WHERE conjuncts and, for
	// IN, the enclosing value = the selected one, with the subquery's own
	// columns renamed to ScopeName.
	On   []sqlparser.Expr
	Kind SemiKind
}

// SemiJoinOf converts a subquery SemiJoinCandidate accepted (its SELECT,
// kind and IN value) whose FROM tables are names into the n-th semi-joined
// table of the enclosing query (whose columns sc resolves), or returns
// nil: not one stored table, a select list that reads the enclosing query
// under EXISTS, a row of another width under IN, or an uncorrelated IN
// whose value leads an index (the subquery's values then drive that
// index).
func SemiJoinOf(sel *sqlparser.Select, kind SemiKind, left sqlparser.Expr, names *InnerNames, sc *eval.Scope, n int) *SemiTable {
	if len(names.Defs) != 1 {
		return nil
	}
	ate := sel.From[0].(*sqlparser.AliasedTableExpr)
	tn := ate.Expr.(sqlparser.TableName)
	alias := tn.Name.String()
	if !ate.As.IsEmpty() {
		alias = ate.As.String()
	}
	internal := SemiAliasPrefix + strconv.Itoa(n) + "." + alias
	own := func(e sqlparser.Expr) sqlparser.Expr {
		return sqlparser.Rewrite(sqlparser.Clone(e), nil, func(cur *sqlparser.Cursor) bool {
			if cn, ok := cur.Node().(*sqlparser.ColName); ok && names.Own(cn) {
				cur.Replace(sqlparser.NewColNameWithQualifier(cn.Name.String(), sqlparser.TableName{Name: sqlparser.NewIdentifierCS(internal)}))
			}
			return true
		}).(sqlparser.Expr)
	}
	on := SplitAnd(WhereExpr(sel.Where))
	correlated := false
	for k, e := range on {
		if _, out := names.Refs(e); out {
			correlated = true
		}
		on[k] = own(e)
	}
	if left == nil {
		// EXISTS ignores the select list, but its names must resolve:
		// one that is not the subquery's own is left to the subquery's
		// planning (and its error).
		for _, se := range sel.SelectExprs.Exprs {
			if ae, ok := se.(*sqlparser.AliasedExpr); ok {
				if _, out := names.Refs(ae.Expr); out {
					return nil
				}
			}
		}
	} else {
		vals := []sqlparser.Expr{left}
		if t, ok := left.(sqlparser.ValTuple); ok {
			vals = t
		}
		if len(vals) != len(sel.SelectExprs.Exprs) {
			return nil
		}
		for k, se := range sel.SelectExprs.Exprs {
			ae, ok := se.(*sqlparser.AliasedExpr)
			if !ok {
				return nil
			}
			if _, out := names.Refs(ae.Expr); out {
				correlated = true
			}
			// The enclosing query's value, as written, against the
			// subquery's, with its own columns renamed.
			on = append(on, &sqlparser.ComparisonExpr{Operator: sqlparser.EqualOp, Left: vals[k], Right: own(ae.Expr)})
		}
		if !correlated && leadsIndex(vals[0], sc) {
			return nil
		}
	}
	return &SemiTable{Def: names.Defs[0], Alias: alias, ScopeName: internal, Hints: ParseHints(ate.Hints), On: on, Kind: kind}
}

// semiJoinable reports whether a subquery's SELECT can be a semi-join's
// table: its rows matter only by existing (no grouping, aggregate, window,
// LIMIT, HAVING, CTE, locking or nested subquery).
func semiJoinable(sel *sqlparser.Select) bool {
	if sel.With != nil || sel.Into != nil || sel.Lock != sqlparser.NoLock || sel.Having != nil || sel.Limit != nil ||
		sel.GroupBy != nil && len(sel.GroupBy.Exprs) > 0 || sel.Windows != nil || sel.SQLCalcFoundRows || len(sel.From) != 1 {
		return false
	}
	if _, ok := sel.From[0].(*sqlparser.AliasedTableExpr); !ok {
		return false
	}
	if sel.Where != nil && (eval.HasSubquery(sel.Where.Expr) || ContainsAggr(sel.Where.Expr)) {
		return false
	}
	bad := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch n.(type) {
		case sqlparser.AggrFunc, *sqlparser.OverClause, *sqlparser.Subquery, *sqlparser.ExistsExpr, *sqlparser.AssignmentExpr:
			bad = true
		}
		return !bad, nil
	}, sel.SelectExprs)
	return !bad
}

// leadsIndex reports whether e is a column of the enclosing query that is
// the first column of one of its table's indexes.
func leadsIndex(e sqlparser.Expr, sc *eval.Scope) bool {
	cn, ok := e.(*sqlparser.ColName)
	if !ok {
		return false
	}
	i, err := sc.Resolve(cn)
	if err != nil || sc.Cols[i].Col == nil {
		return false
	}
	for _, ix := range sc.Cols[i].Tbl.Indexes {
		if len(ix.Columns) > 0 && ix.Columns[0].Col == sc.Cols[i].ColIdx {
			return true
		}
	}
	return false
}

// SemiOrder places the semi-joined items (indexes nReg and up) into order,
// the execution order of the query's own items: each right after the last
// item its conditions read, or first when they read none. deps[k] is the
// set of items semi item nReg+k reads.
func SemiOrder(order []int, nReg int, deps []uint64) []int {
	for k, d := range deps {
		at := 0
		for p, i := range order {
			if i < 64 && d&(1<<i) != 0 {
				at = p + 1
			}
		}
		order = append(order, 0)
		copy(order[at+1:], order[at:])
		order[at] = nReg + k
	}
	return order
}
