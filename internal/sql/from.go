package sql

import (
	"context"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/sqlparser"
	"vitess.io/vitess/go/vt/vtgate/evalengine"

	"github.com/strata-db/strata/internal/catalog"
)

// fromItem is a table of the FROM clause before planning.
type fromItem struct {
	def     *catalog.Table
	alias   string
	hints   indexHints
	outer   bool             // right side of a LEFT JOIN
	on      []sqlparser.Expr // its ON conditions (LEFT JOIN only)
	virtual func(ex *execCtx) ([]Row, error)
}

// fromBuilder flattens a FROM clause into a left-deep list of tables.
type fromBuilder struct {
	s     *Session
	ctx   context.Context
	items []*fromItem
	// where collects inner-join ON conditions, which act like WHERE.
	where []sqlparser.Expr
}

func (b *fromBuilder) add(te sqlparser.TableExpr) error {
	switch t := te.(type) {
	case *sqlparser.AliasedTableExpr:
		tn, ok := t.Expr.(sqlparser.TableName)
		if !ok {
			if _, isSub := t.Expr.(*sqlparser.DerivedTable); isSub {
				return unsupportedErr("derived tables")
			}
			return unsupportedErr("%s", sqlparser.String(t))
		}
		def, virt, err := b.s.lookupTable(b.ctx, tn)
		if err != nil {
			return err
		}
		alias := tn.Name.String()
		if !t.As.IsEmpty() {
			alias = t.As.String()
		}
		for _, it := range b.items {
			if it.alias == alias {
				return sqlErr(sqlerror.ERNonUniqTable, "42000", "Not unique table/alias: '%s'", alias)
			}
		}
		b.items = append(b.items, &fromItem{def: def, alias: alias, hints: parseHints(t.Hints), virtual: virt})
		return nil
	case *sqlparser.JoinTableExpr:
		switch t.Join {
		case sqlparser.NormalJoinType, sqlparser.StraightJoinType:
			if err := b.add(t.LeftExpr); err != nil {
				return err
			}
			if err := b.add(t.RightExpr); err != nil {
				return err
			}
			if t.Condition != nil {
				if t.Condition.On != nil {
					b.where = append(b.where, splitAnd(t.Condition.On)...)
				}
				if len(t.Condition.Using) > 0 {
					b.where = append(b.where, b.usingConds(t.Condition.Using, len(b.items)-1)...)
				}
			}
			return nil
		case sqlparser.LeftJoinType, sqlparser.RightJoinType:
			left, right := t.LeftExpr, t.RightExpr
			if t.Join == sqlparser.RightJoinType {
				left, right = right, left
			}
			if err := b.add(left); err != nil {
				return err
			}
			n := len(b.items)
			if err := b.add(right); err != nil {
				return err
			}
			if len(b.items) != n+1 {
				return unsupportedErr("outer join with a nested join on its inner side")
			}
			it := b.items[n]
			it.outer = true
			if t.Condition != nil {
				if t.Condition.On != nil {
					it.on = splitAnd(t.Condition.On)
				}
				if len(t.Condition.Using) > 0 {
					it.on = append(it.on, b.usingConds(t.Condition.Using, n)...)
				}
			}
			return nil
		case sqlparser.NaturalJoinType:
			return unsupportedErr("NATURAL JOIN")
		default:
			return unsupportedErr("%s", t.Join.ToString())
		}
	case *sqlparser.ParenTableExpr:
		for _, x := range t.Exprs {
			if err := b.add(x); err != nil {
				return err
			}
		}
		return nil
	}
	return unsupportedErr("%s", sqlparser.String(te))
}

// usingConds turns USING (cols) between the table at index right and the
// tables before it into equality conditions.
func (b *fromBuilder) usingConds(cols sqlparser.Columns, right int) []sqlparser.Expr {
	var out []sqlparser.Expr
	r := b.items[right]
	for _, c := range cols {
		for li := right - 1; li >= 0; li-- {
			l := b.items[li]
			if l.def.ColumnIndex(c.String()) >= 0 {
				out = append(out, &sqlparser.ComparisonExpr{
					Operator: sqlparser.EqualOp,
					Left:     sqlparser.NewColNameWithQualifier(c.String(), sqlparser.TableName{Name: sqlparser.NewIdentifierCS(l.alias)}),
					Right:    sqlparser.NewColNameWithQualifier(c.String(), sqlparser.TableName{Name: sqlparser.NewIdentifierCS(r.alias)}),
				})
				break
			}
		}
	}
	return out
}

// splitAnd splits a condition into its AND-ed conjuncts.
func splitAnd(e sqlparser.Expr) []sqlparser.Expr {
	if e == nil {
		return nil
	}
	if a, ok := e.(*sqlparser.AndExpr); ok {
		return append(splitAnd(a.Left), splitAnd(a.Right)...)
	}
	return []sqlparser.Expr{e}
}

// lookupTable resolves a table name (with the current database as default).
func (s *Session) lookupTable(ctx context.Context, tn sqlparser.TableName) (*catalog.Table, func(ex *execCtx) ([]Row, error), error) {
	db := tn.Qualifier.String()
	if db == "" {
		db = s.DB
	}
	name := tn.Name.String()
	if db == "" {
		return nil, nil, noDBErr()
	}
	if isSystemSchema(db) {
		def, virt, err := s.systemTable(db, name)
		if err != nil {
			return nil, nil, err
		}
		return def, virt, nil
	}
	t := s.eng.Cat.Table(db, name)
	if t == nil {
		if s.eng.Cat.Database(db) == nil && !strings.EqualFold(db, s.DB) {
			return nil, nil, noTableErr(db, name)
		}
		return nil, nil, noTableErr(db, name)
	}
	if err := s.useTable(ctx, t); err != nil {
		return nil, nil, err
	}
	return t, nil, nil
}

// referencedLevel returns the highest source index whose columns e uses
// (-1 for none), given the scope offsets of each source.
func referencedLevel(e sqlparser.Expr, sc *scope, offs []int) (int, error) {
	level := -1
	var rerr error
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch c := n.(type) {
		case *sqlparser.ColName:
			i, err := sc.resolve(c)
			if err != nil {
				rerr = err
				return false, nil
			}
			for l := len(offs) - 1; l >= 0; l-- {
				if i >= offs[l] {
					if l > level {
						level = l
					}
					break
				}
			}
		case *sqlparser.Subquery:
			return false, nil
		}
		return true, nil
	}, e)
	return level, rerr
}

// compileAll compiles a list of expressions.
func (c *compiler) compileAll(es []sqlparser.Expr) ([]evalengine.Expr, error) {
	out := make([]evalengine.Expr, 0, len(es))
	for _, e := range es {
		x, err := c.compile(e)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}
