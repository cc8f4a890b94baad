package plan

import (
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
)

// Sargable predicates: the conjuncts an index can serve, a column of the
// table compared with values known before the table is read (constants,
// parameters, columns of the tables joined before it, outer references of
// a correlated subquery). The access-path choice ranks indexes by the
// predicates on their leading columns.

// Consumable reports whether a Predicate is enforced exactly by its key
// range (no prefix key part, no explicit collation on the value).
func Consumable(p *Predicate, ic catalog.IndexColumn) bool {
	if ic.Prefix > 0 || p.Src == nil {
		return false
	}
	for _, v := range p.Vals {
		bad := false
		_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
			switch n.(type) {
			case *sqlparser.CollateExpr, *sqlparser.Subquery:
				bad = true
			}
			return !bad, nil
		}, v)
		if bad {
			return false
		}
	}
	return true
}

// Predicate is a sargable conjunct: col op value(s).
type Predicate struct {
	Src sqlparser.Expr // the conjunct it came from
	Col int            // table column ordinal
	Op  string         // "=", "<=>", "<", "<=", ">", ">=", "in", "between", "isnull", "insub", "tuple"
	// Vals are the values compared with the column (op "insub": the
	// *sqlparser.Subquery, planned by the caller).
	Vals []sqlparser.Expr
	// Cols: op "tuple" (row-constructor IN, Col -1): the table columns of
	// the left-hand row; each of Vals is a ValTuple of as many values.
	Cols []int
}

// eqRank orders the equality-like predicates on one index column: a single
// value beats a row-constructor IN (whose rows also fix other columns),
// which beats an IN list, which beats IN (SELECT ...).
func eqRank(p *Predicate) int {
	switch p.Op {
	case "=", "<=>", "isnull":
		return 4
	case "in":
		if len(p.Vals) == 1 {
			return 4
		}
		return 2
	case "tuple":
		return 3
	case "insub":
		return 1
	}
	return 0
}

// Binds reports whether p gives values of table column col, and for a
// row-constructor IN which element of its rows does.
func (p *Predicate) Binds(col int) (elem int, ok bool) {
	if p.Op == "tuple" {
		for e, c := range p.Cols {
			if c == col {
				return e, true
			}
		}
		return 0, false
	}
	return 0, p.Col == col
}

// Sargable extracts predicates on columns of tbl (columns tblOff..tblOff+n of
// the scope) whose other side only uses columns before tblOff.
func Sargable(conds []sqlparser.Expr, sc *eval.Scope, tblOff, n int, outer *eval.Outer, bound func(col int) bool) []Predicate {
	var out []Predicate
	colOf := func(e sqlparser.Expr) int {
		c, ok := e.(*sqlparser.ColName)
		if !ok {
			return -1
		}
		i, err := sc.Resolve(c)
		if err != nil || i < tblOff || i >= tblOff+n {
			return -1
		}
		return i - tblOff
	}
	avail := func(e sqlparser.Expr) bool {
		ok := true
		_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
			switch x := node.(type) {
			case *sqlparser.ColName:
				i, err := sc.Resolve(x)
				if err != nil {
					ok = outer.CanResolve(x) // correlated: constant per outer row
				} else if !bound(i) {
					ok = false
				}
			case *sqlparser.Subquery, sqlparser.AggrFunc, *sqlparser.Variable:
				ok = false
			case *sqlparser.FuncExpr:
				switch x.Name.Lowered() {
				case "rand", "uuid", "sleep", "get_lock", "release_lock", "last_insert_id":
					ok = false
				default:
					ok = !eval.MaybeStoredCall(x) // a stored function: per row
				}
			}
			return ok, nil
		}, e)
		return ok
	}
	// An ENUM index is in member-position order (a SET index in bitmask
	// order), which is the order of MySQL's comparisons of the column with
	// numbers but not with strings ('b' > 'a' whatever their positions):
	// a range over it is used for numeric constants only (equalities use
	// it for either).
	enumRange := func(col int, vals ...sqlparser.Expr) bool {
		c := sc.Cols[tblOff+col].Col
		if c == nil || c.Type != sqltypes.Enum && c.Type != sqltypes.Set {
			return true
		}
		for _, v := range vals {
			if !eval.NumericLiteral(v) {
				return false
			}
		}
		return true
	}
	flip := map[sqlparser.ComparisonExprOperator]string{
		sqlparser.EqualOp: "=", sqlparser.NullSafeEqualOp: "<=>",
		sqlparser.LessThanOp: ">", sqlparser.LessEqualOp: ">=",
		sqlparser.GreaterThanOp: "<", sqlparser.GreaterEqualOp: "<=",
	}
	same := map[sqlparser.ComparisonExprOperator]string{
		sqlparser.EqualOp: "=", sqlparser.NullSafeEqualOp: "<=>",
		sqlparser.LessThanOp: "<", sqlparser.LessEqualOp: "<=",
		sqlparser.GreaterThanOp: ">", sqlparser.GreaterEqualOp: ">=",
	}
	for _, c := range conds {
		switch e := c.(type) {
		case *sqlparser.ComparisonExpr:
			if e.Operator == sqlparser.InOp {
				if p, ok := tuplePredicate(e, colOf, avail); ok {
					out = append(out, p)
					continue
				}
				col := colOf(e.Left)
				if sq, ok := e.Right.(*sqlparser.Subquery); ok && col >= 0 {
					out = append(out, Predicate{Src: c, Col: col, Op: "insub", Vals: []sqlparser.Expr{sq}})
					continue
				}
				tup, ok := e.Right.(sqlparser.ValTuple)
				if col < 0 || !ok || len(tup) == 0 {
					continue
				}
				all := true
				for _, v := range tup {
					if !avail(v) {
						all = false
					}
				}
				if all {
					out = append(out, Predicate{Src: c, Col: col, Op: "in", Vals: tup})
				}
				continue
			}
			ordering := e.Operator != sqlparser.EqualOp && e.Operator != sqlparser.NullSafeEqualOp
			if op, ok := same[e.Operator]; ok {
				if col := colOf(e.Left); col >= 0 && avail(e.Right) && (!ordering || enumRange(col, e.Right)) {
					out = append(out, Predicate{Src: c, Col: col, Op: op, Vals: []sqlparser.Expr{e.Right}})
					continue
				}
			}
			if op, ok := flip[e.Operator]; ok {
				if col := colOf(e.Right); col >= 0 && avail(e.Left) && (!ordering || enumRange(col, e.Left)) {
					out = append(out, Predicate{Src: c, Col: col, Op: op, Vals: []sqlparser.Expr{e.Left}})
				}
			}
		case *sqlparser.BetweenExpr:
			if !e.IsBetween {
				continue
			}
			if col := colOf(e.Left); col >= 0 && avail(e.From) && avail(e.To) && enumRange(col, e.From, e.To) {
				out = append(out, Predicate{Src: c, Col: col, Op: "between", Vals: []sqlparser.Expr{e.From, e.To}})
			}
		case *sqlparser.IsExpr:
			if e.Right == sqlparser.IsNullOp {
				if col := colOf(e.Left); col >= 0 {
					out = append(out, Predicate{Src: c, Col: col, Op: "isnull"})
				}
			}
		}
	}
	return out
}

// tuplePredicate recognises a row-constructor IN over columns of the table
// (colOf >= 0) with rows of values available before the table is read.
func tuplePredicate(e *sqlparser.ComparisonExpr, colOf func(sqlparser.Expr) int, avail func(sqlparser.Expr) bool) (Predicate, bool) {
	lt, ok := e.Left.(sqlparser.ValTuple)
	if !ok || len(lt) == 0 {
		return Predicate{}, false
	}
	rows, ok := e.Right.(sqlparser.ValTuple)
	if !ok || len(rows) == 0 {
		return Predicate{}, false
	}
	cols := make([]int, len(lt))
	for i, x := range lt {
		if cols[i] = colOf(x); cols[i] < 0 {
			return Predicate{}, false
		}
	}
	for _, r := range rows {
		rt, ok := r.(sqlparser.ValTuple)
		if !ok || len(rt) != len(lt) {
			return Predicate{}, false
		}
		for _, v := range rt {
			if !avail(v) {
				return Predicate{}, false
			}
		}
	}
	return Predicate{Src: e, Col: -1, Op: "tuple", Vals: rows, Cols: cols}, true
}
