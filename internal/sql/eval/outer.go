package eval

import (
	"strconv"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"
)

// Outer is the scope a subquery's outer references resolve in, and the
// references the subquery plan makes to it. The planner creates one per
// subquery (its Scope is the enclosing query's) and binds each reference
// from the enclosing query's row when it runs the subquery.
type Outer struct {
	Scope  *Scope
	Refs   []OuterRef
	Parent *Outer
	// Correlated: the plan reads any outer value (directly or through an
	// inner subquery), so its result cannot be cached.
	Correlated bool
}

// OuterRef is one outer reference: the bind variable Name stands for the
// value at offset Off of the enclosing query's row.
type OuterRef struct {
	Name string
	Off  int // offset in the outer row
	// Coll is the column's collation for a text column (0 otherwise).
	Coll collations.ID
}

// bindCollation returns the collation of the text column an outer-reference
// bind variable stands for.
func (o *Outer) bindCollation(name string) (collations.ID, bool) {
	for ; o != nil; o = o.Parent {
		for _, r := range o.Refs {
			if r.Name == name {
				return r.Coll, r.Coll != 0
			}
		}
	}
	return 0, false
}

// resolve maps a column that does not resolve locally to a bind variable
// bound from an enclosing query's row; p numbers new references.
func (o *Outer) resolve(p Planner, cn *sqlparser.ColName) (string, bool) {
	if o == nil {
		return "", false
	}
	if i, err := o.Scope.Resolve(cn); err == nil {
		for _, r := range o.Refs {
			if r.Off == i {
				o.Correlated = true
				return r.Name, true
			}
		}
		name := BVPrefix + "outer_" + strconv.FormatUint(p.NextSeq(), 10)
		var coll collations.ID
		if t := o.Scope.Cols[i].Type; t.Valid() && sqltypes.IsText(t.Type()) {
			coll = t.Collation()
		}
		o.Refs = append(o.Refs, OuterRef{Name: name, Off: i, Coll: coll})
		o.Correlated = true
		return name, true
	}
	if o.Parent != nil {
		if name, ok := o.Parent.resolve(p, cn); ok {
			o.Correlated = true
			return name, true
		}
	}
	return "", false
}

// CanResolve reports whether an enclosing scope defines cn (without
// registering a reference).
func (o *Outer) CanResolve(cn *sqlparser.ColName) bool {
	for x := o; x != nil; x = x.Parent {
		if _, err := x.Scope.Resolve(cn); err == nil {
			return true
		}
	}
	return false
}

// rewriteOuterRefs replaces columns that only resolve in an enclosing query
// by bind variables.
func (c *Compiler) rewriteOuterRefs(e sqlparser.Expr) (sqlparser.Expr, error) {
	if c.Outer == nil {
		return e, nil
	}
	var rerr error
	out := sqlparser.Rewrite(e, func(cur *sqlparser.Cursor) bool {
		switch n := cur.Node().(type) {
		case *sqlparser.Subquery:
			return false
		case *sqlparser.ColName:
			if _, err := c.Scope.Resolve(n); err == nil {
				return true
			}
			if name, ok := c.Outer.resolve(c.Planner, n); ok {
				cur.Replace(sqlparser.NewArgument(name))
			}
		}
		return true
	}, nil)
	if rerr != nil {
		return nil, rerr
	}
	return out.(sqlparser.Expr), nil
}
