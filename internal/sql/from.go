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
	// view is the view this derived table expands (nil otherwise).
	view *catalog.View
	// fn: a table function (JSON_TABLE, json_table.go); tf: it with its
	// argument compiled.
	fn *jsonTable
	tf *tableFunc
}

// fromBuilder flattens a FROM clause into a left-deep list of tables.
type fromBuilder struct {
	s     *Session
	ctx   context.Context
	items []*fromItem
	// where collects inner-join ON conditions, which act like WHERE.
	where []sqlparser.Expr
	// using lists columns joined with USING or NATURAL (coalesced: an
	// unqualified reference means the leftmost table's column).
	using map[string]bool
	// star is the column order of SELECT * over the FROM clause: every
	// item's columns in written order, except that a USING or NATURAL
	// join puts the columns it joins on first, once (using.go).
	star []starCol
	// straight: STRAIGHT_JOIN fixes the join order.
	straight bool
	// nests are the outer joins' inner sides (nest.go); itemNest is the
	// innermost nest of each item (-1: none) and scope the nest being
	// built (-1: the top level).
	nests    []fromNest
	itemNest []int
	scope    int
	// onScopes: each ON clause with the items its join joins, the only
	// ones it may read (nest.go).
	onScopes []onScope
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
			if v := b.s.lookupView(x); v != nil {
				it, err := b.s.viewSource(b.ctx, v, alias)
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
		return b.addItem(item)
	case *sqlparser.JSONTableExpr:
		item, err := jsonTableItem(t)
		if err != nil {
			return err
		}
		return b.addItem(item)
	case *sqlparser.JoinTableExpr:
		switch t.Join {
		case sqlparser.NormalJoinType, sqlparser.StraightJoinType, sqlparser.NaturalJoinType:
			if t.Join == sqlparser.StraightJoinType {
				b.straight = true
			}
			mark, lo := len(b.star), len(b.items)
			if err := b.add(t.LeftExpr); err != nil {
				return err
			}
			lmark := len(b.star)
			if err := b.add(t.RightExpr); err != nil {
				return err
			}
			if t.Condition != nil && t.Condition.On != nil {
				on := plan.SplitAnd(t.Condition.On)
				b.addConds(on)
				b.onScopes = append(b.onScopes, onScope{on, lo, len(b.items)})
			}
			conds, err := b.joinUsing(t, mark, lmark)
			if err != nil {
				return err
			}
			b.addConds(conds)
			return nil
		case sqlparser.LeftJoinType, sqlparser.RightJoinType, sqlparser.NaturalLeftJoinType, sqlparser.NaturalRightJoinType:
			left, right := t.LeftExpr, t.RightExpr
			if t.Join == sqlparser.RightJoinType || t.Join == sqlparser.NaturalRightJoinType {
				left, right = right, left
			}
			mark, lo := len(b.star), len(b.items)
			if err := b.add(left); err != nil {
				return err
			}
			n, lmark := len(b.items), len(b.star)
			// The inner side, one table or a nested join, is a nest of
			// its own: NULL-extended as a unit (nest.go).
			k := len(b.nests)
			b.nests = append(b.nests, fromNest{first: n, parent: b.scope})
			b.scope = k
			err := b.add(right)
			b.scope = b.nests[k].parent
			if err != nil {
				return err
			}
			b.nests[k].last = len(b.items) - 1
			b.items[n].outer = true
			var on []sqlparser.Expr
			if t.Condition != nil && t.Condition.On != nil {
				on = plan.SplitAnd(t.Condition.On)
				b.onScopes = append(b.onScopes, onScope{on, lo, len(b.items)})
			}
			conds, err := b.joinUsing(t, mark, lmark)
			if err != nil {
				return err
			}
			b.nests[k].on = append(append(b.nests[k].on, on...), conds...)
			return nil
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

// addItem appends a table of the FROM clause, unless its alias is taken.
func (b *fromBuilder) addItem(item *fromItem) error {
	for _, it := range b.items {
		if it.alias == item.alias {
			return sqlerr.New(sqlerror.ERNonUniqTable, sqlerror.SSClientError, "Not unique table/alias: '%s'", item.alias)
		}
	}
	b.items = append(b.items, item)
	b.itemNest = append(b.itemNest, b.scope)
	for i := range item.def.Columns {
		b.star = append(b.star, starCol{item: len(b.items) - 1, col: i})
	}
	return nil
}

// namedTable returns the table a plain table expression (a name, not a
// join or a derived table) names, its database defaulted to the current
// one, and the expression (for its alias).
func (s *Session) namedTable(te sqlparser.TableExpr) (ate *sqlparser.AliasedTableExpr, db, name string, ok bool) {
	ate, ok = te.(*sqlparser.AliasedTableExpr)
	if !ok {
		return nil, "", "", false
	}
	tn, ok := ate.Expr.(sqlparser.TableName)
	if !ok {
		return nil, "", "", false
	}
	db, name = tn.Qualifier.String(), tn.Name.String()
	if db == "" {
		db = s.DB
	}
	return ate, db, name, true
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
	t := s.tableDef(db, name)
	if s.inView > 0 {
		// A view's query reads base tables, never temporary ones.
		t = s.eng.Cat.Table(db, name)
	}
	if t == nil {
		if s.eng.Cat.Database(db) == nil && !strings.EqualFold(db, s.DB) {
			return nil, nil, sqlerr.NoTable(db, name)
		}
		return nil, nil, sqlerr.NoTable(db, name)
	}
	if err := s.useTable(ctx, t, false); err != nil {
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
