package sql

import (
	"context"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// fromItem is a table of the FROM clause before planning.
type fromItem struct {
	def   *catalog.Table
	alias string
	hints plan.IndexHints
	outer bool             // right side of a LEFT JOIN
	on    []sqlparser.Expr // its ON conditions (LEFT JOIN, semi-join)
	// semi: the table of a semi- or anti-join (semijoin.go), whose columns
	// are in the scope under scopeName.
	semi      plan.SemiKind
	scopeName string
	virtual   func(ex *execCtx) ([]Row, error)
	// types of a derived table's columns (nil for stored tables).
	types []evalengine.Type
}

// fromBuilder flattens a FROM clause into a left-deep list of tables.
type fromBuilder struct {
	s     *Session
	ctx   context.Context
	items []*fromItem
	// where collects inner-join ON conditions, which act like WHERE.
	where []sqlparser.Expr
	// using lists columns joined with USING (coalesced: an unqualified
	// reference means the leftmost table's column).
	using map[string]bool
	// straight: STRAIGHT_JOIN fixes the join order.
	straight bool
}

func (b *fromBuilder) add(te sqlparser.TableExpr) error {
	switch t := te.(type) {
	case *sqlparser.AliasedTableExpr:
		var item *fromItem
		switch x := t.Expr.(type) {
		case *sqlparser.DerivedTable:
			if t.As.IsEmpty() {
				return sqlerr.New(sqlerror.ERDerivedMustHaveAlias, sqlerror.SSClientError, "Every derived table must have its own alias")
			}
			if x.Lateral {
				return sqlerr.Unsupported("LATERAL derived tables")
			}
			it, err := b.s.derivedSource(b.ctx, t.As.String(), x.Select, t.Columns, nil)
			if err != nil {
				return err
			}
			item = it
		case sqlparser.TableName:
			alias := x.Name.String()
			if !t.As.IsEmpty() {
				alias = t.As.String()
			}
			if d := b.s.lookupCTE(x.Name.String()); d != nil && x.Qualifier.IsEmpty() {
				it, err := b.s.cteSource(b.ctx, d, alias)
				if err != nil {
					return err
				}
				item = it
				break
			}
			def, virt, err := b.s.lookupTable(b.ctx, x)
			if err != nil {
				return err
			}
			item = &fromItem{def: def, alias: alias, hints: plan.ParseHints(t.Hints), virtual: virt}
		default:
			return sqlerr.Unsupported("%s", sqlparser.String(t))
		}
		for _, it := range b.items {
			if it.alias == item.alias {
				return sqlerr.New(sqlerror.ERNonUniqTable, sqlerror.SSClientError, "Not unique table/alias: '%s'", item.alias)
			}
		}
		b.items = append(b.items, item)
		return nil
	case *sqlparser.JoinTableExpr:
		switch t.Join {
		case sqlparser.NormalJoinType, sqlparser.StraightJoinType:
			if t.Join == sqlparser.StraightJoinType {
				b.straight = true
			}
			if err := b.add(t.LeftExpr); err != nil {
				return err
			}
			if err := b.add(t.RightExpr); err != nil {
				return err
			}
			if t.Condition != nil {
				if t.Condition.On != nil {
					b.where = append(b.where, plan.SplitAnd(t.Condition.On)...)
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
				return sqlerr.Unsupported("outer join with a nested join on its inner side")
			}
			it := b.items[n]
			it.outer = true
			if t.Condition != nil {
				if t.Condition.On != nil {
					it.on = plan.SplitAnd(t.Condition.On)
				}
				if len(t.Condition.Using) > 0 {
					it.on = append(it.on, b.usingConds(t.Condition.Using, n)...)
				}
			}
			return nil
		case sqlparser.NaturalJoinType:
			return sqlerr.Unsupported("NATURAL JOIN")
		default:
			return sqlerr.Unsupported("%s", t.Join.ToString())
		}
	case *sqlparser.ParenTableExpr:
		for _, x := range t.Exprs {
			if err := b.add(x); err != nil {
				return err
			}
		}
		return nil
	}
	return sqlerr.Unsupported("%s", sqlparser.String(te))
}

// usingConds turns USING (cols) between the table at index right and the
// tables before it into equality conditions.
func (b *fromBuilder) usingConds(cols sqlparser.Columns, right int) []sqlparser.Expr {
	var out []sqlparser.Expr
	r := b.items[right]
	if b.using == nil {
		b.using = map[string]bool{}
	}
	for _, c := range cols {
		b.using[strings.ToLower(c.String())] = true
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

// lookupTable resolves a table name (with the current database as default).
func (s *Session) lookupTable(ctx context.Context, tn sqlparser.TableName) (*catalog.Table, func(ex *execCtx) ([]Row, error), error) {
	db := tn.Qualifier.String()
	if db == "" {
		db = s.DB
	}
	name := tn.Name.String()
	if db == "" {
		return nil, nil, sqlerr.NoDB()
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
			return nil, nil, sqlerr.NoTable(db, name)
		}
		return nil, nil, sqlerr.NoTable(db, name)
	}
	if err := s.useTable(ctx, t); err != nil {
		return nil, nil, err
	}
	return t, nil, nil
}

// compileAll compiles a list of expressions.
func (c *compiler) compileAll(es []sqlparser.Expr) ([]*eval.Expr, error) {
	out := make([]*eval.Expr, 0, len(es))
	for _, e := range es {
		x, err := c.Compile(e)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}
