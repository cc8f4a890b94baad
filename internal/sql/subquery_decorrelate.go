package sql

import (
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
)

// Decorrelation (plan/decorrelate.go has the rewrite): a subquery
// correlated only through equalities of its WHERE clause is answered from
// one run of its uncorrelated form, hashed on the equalities' inner sides.
// The hash is the lookup of join_lookup.go, so it only answers where
// hashing is exactly SQL's =; an outer value it cannot look up (a string
// against a number, two collations), and an aggregate for a value with no
// rows (COUNT is 0, SUM NULL …), run the correlated subquery for that row
// as before.

// When to switch. The uncorrelated form reads its tables whole; the
// correlated one may read a few rows per outer row through an index (TPC-H
// Q17 reads ten parts' lines). So a statement starts correlated, counts the
// rows its runs read (the Handler_read_* counters), and switches once they
// reach the rows of the subquery's tables: at most about twice the reads of
// the better of the two, without knowing in advance how many outer rows
// there will be.

// decorState is one statement's use of a decorrelated subquery.
type decorState struct {
	reads    uint64 // rows read by the correlated runs so far
	switched bool
}

// decorrelated is the uncorrelated form of a correlated subquery.
type decorrelated struct {
	plan queryPlan
	oc   *eval.Outer
	// outer computes the enclosing row's values of the key columns, which
	// are the plan's first columns.
	outer []*eval.Expr
	key   virtualKey
	// grouped: an aggregate without GROUP BY, grouped on the key (a key
	// with no rows has no group).
	grouped bool
	// budget: the rows of the subquery's tables (0: unknown, never switch).
	budget uint64
	// lookup hashes the plan's result (one execution at a time: a plan is
	// not shared between sessions).
	lookup virtualLookup
	vals   Row
	colls  []collations.TypedCollation
}

// state returns the statement's state of d.
func (d *decorrelated) state(ex *execCtx) *decorState {
	if ex.decor == nil {
		ex.decor = map[*decorrelated]*decorState{}
	}
	st := ex.decor[d]
	if st == nil {
		st = &decorState{}
		ex.decor[d] = st
	}
	return st
}

// correlated runs the correlated subquery for one outer row, counting the
// rows it reads towards the switch.
func (d *decorrelated) correlated(ex *execCtx, run func() error) error {
	st := d.state(ex)
	before := ex.s.handler.load()
	err := run()
	after := ex.s.handler.load()
	st.reads += after.total() - before.total()
	if d.budget > 0 && st.reads >= d.budget {
		st.switched = true
	}
	return err
}

// rows returns the subquery's rows for the enclosing row (the payload
// columns after the key), or ok false when the correlated subquery must
// run for this row.
func (d *decorrelated) rows(ex *execCtx, row Row) (out []Row, ok bool, err error) {
	if !d.state(ex).switched {
		return nil, false, nil
	}
	res, err := ex.runSubquery(d.plan, d.oc, row, true, false)
	if err != nil {
		return nil, false, err
	}
	d.lookup.build(res.Rows, &d.key)
	d.vals, d.colls = d.vals[:0], d.colls[:0]
	for _, x := range d.outer {
		v, tc, err := ex.EvalTyped(x, row)
		if err != nil {
			return nil, false, err
		}
		d.vals, d.colls = append(d.vals, v), append(d.colls, tc)
	}
	cand, ok := d.lookup.candidates(ex, d.vals, d.colls, &d.key)
	if !ok || d.grouped && len(cand) == 0 {
		return nil, false, nil
	}
	n := len(d.outer)
	out = make([]Row, len(cand))
	for i, r := range cand {
		out[i] = r[n:]
	}
	return out, true, nil
}

// decorrelate returns the uncorrelated form of sub (used as kind), or nil
// when its correlation is not only equalities of its WHERE clause.
func (c *compiler) decorrelate(sub *sqlparser.Subquery, kind eval.SubqueryKind) (*decorrelated, error) {
	sel, ok := sub.Select.(*sqlparser.Select)
	if !ok || !plan.Decorrelatable(sel, kind) {
		return nil, nil
	}
	inner, ok := c.innerColumns(sel.From)
	if !ok {
		return nil, nil
	}
	dc := plan.Decorrelate(sel, kind, inner)
	if dc == nil {
		return nil, nil
	}
	q, grouped, outerKeys := dc.Query, dc.Grouped, dc.OuterKeys
	oc := &eval.Outer{Scope: c.Scope, Parent: c.Outer}
	p, err := c.s.planQuery(c.context(), q, oc)
	if err != nil || oc.Correlated {
		return nil, nil // the correlated plan stands (and reports any error)
	}
	d := &decorrelated{plan: p, oc: oc, grouped: grouped}
	for _, def := range inner.Defs {
		d.budget += uint64(c.s.eng.Store.EstimatedRows(def, c.s.eng.Cat.Stats(def)))
	}
	outs := p.outputs()
	for i, e := range outerKeys {
		x, err := c.Compile(e)
		if err != nil {
			return nil, nil
		}
		d.outer = append(d.outer, x)
		part := keyPart{col: i, ref: e}
		if t := outs[i].typ; t.Valid() && sqltypes.IsText(t.Type()) {
			part.coll = t.Collation()
		} else if !t.Valid() {
			return nil, nil
		}
		d.key.parts = append(d.key.parts, part)
	}
	return d, nil
}

// innerColumns collects the stored tables of from (plain tables and joins
// of them); ok is false for anything else (a derived table, a table
// function).
func (c *compiler) innerColumns(from []sqlparser.TableExpr) (*plan.InnerNames, bool) {
	n := &plan.InnerNames{}
	var add func(te sqlparser.TableExpr) bool
	add = func(te sqlparser.TableExpr) bool {
		switch t := te.(type) {
		case *sqlparser.AliasedTableExpr:
			tn, ok := t.Expr.(sqlparser.TableName)
			if !ok || tn.Qualifier.IsEmpty() && c.s.lookupCTE(tn.Name.String()) != nil {
				return false
			}
			def, virt, err := c.s.lookupTable(c.context(), tn)
			if err != nil || virt != nil {
				return false
			}
			alias := tn.Name.String()
			if !t.As.IsEmpty() {
				alias = t.As.String()
			}
			n.Add(alias, def)
			return true
		case *sqlparser.JoinTableExpr:
			if t.Condition != nil && len(t.Condition.Using) > 0 {
				return false
			}
			return add(t.LeftExpr) && add(t.RightExpr)
		}
		return false
	}
	for _, te := range from {
		if !add(te) {
			return n, false
		}
	}
	return n, true
}
