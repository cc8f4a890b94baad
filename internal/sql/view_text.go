package sql

import (
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"
)

// The canonical text of a view's query, as MySQL stores it and SHOW CREATE
// VIEW prints it: table names qualified with their database (printed
// without it when it is the view's own), column references qualified with
// their table where the FROM clause tells which, every select expression
// named with AS, star expanded into the columns it meant at creation,
// identifiers quoted, comparisons and logical operators parenthesised,
// table aliases without AS, lists (select expressions, function
// arguments, GROUP BY, ORDER BY) separated by a bare comma, function names
// in lower case, COUNT(*) as count(0).

// viewText prints a view's query; table names qualified with stripDB are
// printed without it.
func viewText(node sqlparser.SQLNode, stripDB string) string {
	buf := sqlparser.NewTrackedBuffer(func(buf *sqlparser.TrackedBuffer, n sqlparser.SQLNode) {
		switch x := n.(type) {
		case *sqlparser.SelectExprs:
			for i, e := range x.Exprs {
				if i > 0 {
					buf.WriteByte(',')
				}
				buf.Myprintf("%v", e)
			}
			return
		case *sqlparser.AliasedExpr:
			if x.As.NotEmpty() {
				buf.Myprintf("%v AS %v", x.Expr, x.As)
				return
			}
		case *sqlparser.AliasedTableExpr:
			if x.As.NotEmpty() && len(x.Columns) == 0 && x.Hints == nil && len(x.Partitions) == 0 {
				buf.Myprintf("%v %v", x.Expr, x.As)
				return
			}
		case sqlparser.TableName:
			if stripDB != "" && x.Qualifier.String() == stripDB {
				buf.Myprintf("%v", x.Name)
				return
			}
		case *sqlparser.FuncExpr:
			if x.Qualifier.IsEmpty() {
				buf.WriteString(x.Name.Lowered())
				buf.WriteByte('(')
				for i, e := range x.Exprs {
					if i > 0 {
						buf.WriteByte(',')
					}
					buf.Myprintf("%v", e)
				}
				buf.WriteByte(')')
				return
			}
		case *sqlparser.GroupBy:
			if x != nil && len(x.Exprs) > 0 {
				buf.WriteString(" group by ")
				for i, e := range x.Exprs {
					if i > 0 {
						buf.WriteByte(',')
					}
					buf.Myprintf("%v", e)
				}
				if x.WithRollup {
					buf.WriteString(" with rollup")
				}
				return
			}
		case sqlparser.OrderBy:
			for i, o := range x {
				if i == 0 {
					buf.WriteString(" order by ")
				} else {
					buf.WriteByte(',')
				}
				buf.Myprintf("%v", o)
			}
			return
		case *sqlparser.JSONTableExpr:
			formatJSONTable(buf, x)
			return
		case *sqlparser.CountStar:
			if x.OverClause == nil {
				// MySQL stores COUNT(*) as count(0).
				buf.WriteString("count(0)")
				return
			}
		case *sqlparser.ComparisonExpr, *sqlparser.AndExpr, *sqlparser.OrExpr, *sqlparser.XorExpr,
			*sqlparser.BinaryExpr, *sqlparser.BetweenExpr, *sqlparser.IsExpr:
			buf.WriteByte('(')
			n.Format(buf)
			buf.WriteByte(')')
			return
		}
		n.Format(buf)
	})
	buf.SetEscapeAllIdentifiers()
	buf.Myprintf("%v", node)
	return buf.String()
}

// qualifyTables qualifies the table names of a view's query that name no
// database with db (CTE names stay as they are).
func qualifyTables(sel sqlparser.SQLNode, db string) {
	ctes := map[string]bool{}
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if w, ok := n.(*sqlparser.With); ok && w != nil {
			for _, c := range w.CTEs {
				ctes[c.ID.String()] = true
			}
		}
		return true, nil
	}, sel)
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if a, ok := n.(*sqlparser.AliasedTableExpr); ok {
			if tn, ok := a.Expr.(sqlparser.TableName); ok && tn.Qualifier.IsEmpty() && !ctes[tn.Name.String()] && tn.Name.String() != "dual" {
				tn.Qualifier = sqlparser.NewIdentifierCS(db)
				a.Expr = tn
			}
		}
		return true, nil
	}, sel)
}

// viewFromTable is a table of a SELECT's FROM clause with the columns it
// is known to have.
type viewFromTable struct {
	alias string
	cols  []string
}

// fromTables lists the tables of a FROM clause with their columns; ok is
// false when some item's columns are not known from the catalog (a
// derived table) or a join coalesces columns (USING,
// NATURAL): then column references are left as written.
func (s *Session) fromTables(from []sqlparser.TableExpr) (out []viewFromTable, ok bool) {
	var add func(te sqlparser.TableExpr) bool
	add = func(te sqlparser.TableExpr) bool {
		switch t := te.(type) {
		case *sqlparser.AliasedTableExpr:
			tn, isName := t.Expr.(sqlparser.TableName)
			if !isName {
				return false
			}
			alias := tn.Name.String()
			if t.As.NotEmpty() {
				alias = t.As.String()
			}
			var cols []string
			if def := s.eng.Cat.Table(tn.Qualifier.String(), tn.Name.String()); def != nil {
				for _, c := range def.Columns {
					cols = append(cols, c.Name)
				}
			} else if v := s.eng.Cat.View(tn.Qualifier.String(), tn.Name.String()); v != nil {
				cols = v.Columns
			} else {
				return false
			}
			out = append(out, viewFromTable{alias: alias, cols: cols})
			return true
		case *sqlparser.JSONTableExpr:
			out = append(out, viewFromTable{alias: t.Alias.String(), cols: jtColumnNames(nil, t.Columns)})
			return true
		case *sqlparser.JoinTableExpr:
			if t.Condition != nil && len(t.Condition.Using) > 0 {
				return false
			}
			switch t.Join {
			case sqlparser.NaturalJoinType, sqlparser.NaturalLeftJoinType, sqlparser.NaturalRightJoinType:
				return false
			}
			return add(t.LeftExpr) && add(t.RightExpr)
		case *sqlparser.ParenTableExpr:
			for _, x := range t.Exprs {
				if !add(x) {
					return false
				}
			}
			return true
		}
		return false
	}
	for _, te := range from {
		if a, isA := te.(*sqlparser.AliasedTableExpr); isA {
			if tn, isN := a.Expr.(sqlparser.TableName); isN && tn.Qualifier.IsEmpty() && tn.Name.String() == "dual" {
				continue
			}
		}
		if !add(te) {
			return nil, false
		}
	}
	return out, true
}

// canonicalizeView rewrites a planned view query into its canonical form
// (see the top of this file). selNames are the names of the select list
// (of its first SELECT; MySQL keeps them when the view has a column list).
func (s *Session) canonicalizeView(sel sqlparser.TableStatement, selNames []string) {
	for i, part := range sqlparser.GetAllSelects(sel) {
		p, ok := part.(*sqlparser.Select)
		if !ok {
			continue
		}
		var names []string
		if i == 0 {
			names = selNames
		}
		s.canonicalizeSelect(p, names)
	}
}

func (s *Session) canonicalizeSelect(p *sqlparser.Select, names []string) {
	tables, known := s.fromTables(p.From)
	if known && p.SelectExprs != nil {
		var exprs []sqlparser.SelectExpr
		for _, e := range p.SelectExprs.Exprs {
			star, isStar := e.(*sqlparser.StarExpr)
			if !isStar {
				exprs = append(exprs, e)
				continue
			}
			for _, t := range tables {
				if !star.TableName.IsEmpty() && star.TableName.Name.String() != t.alias {
					continue
				}
				for _, c := range t.cols {
					exprs = append(exprs, &sqlparser.AliasedExpr{
						Expr: &sqlparser.ColName{Name: sqlparser.NewIdentifierCI(c), Qualifier: sqlparser.TableName{Name: sqlparser.NewIdentifierCS(t.alias)}},
						As:   sqlparser.NewIdentifierCI(c)})
				}
			}
		}
		p.SelectExprs.Exprs = exprs
	}
	aliases := map[string]bool{}
	if p.SelectExprs != nil {
		stars := false
		for _, e := range p.SelectExprs.Exprs {
			if _, ok := e.(*sqlparser.StarExpr); ok {
				stars = true
			}
		}
		for i, e := range p.SelectExprs.Exprs {
			ae, ok := e.(*sqlparser.AliasedExpr)
			if !ok {
				continue
			}
			if ae.As.IsEmpty() {
				switch {
				case !stars && i < len(names):
					ae.As = sqlparser.NewIdentifierCI(names[i])
				default:
					if c, ok := ae.Expr.(*sqlparser.ColName); ok {
						ae.As = c.Name
					}
				}
			}
			// An alias of the column of the same name resolves to that
			// column either way.
			if c, ok := ae.Expr.(*sqlparser.ColName); ae.As.NotEmpty() && !(ok && c.Name.Lowered() == ae.As.Lowered()) {
				aliases[ae.As.Lowered()] = true
			}
		}
	}
	if !known {
		return
	}
	qualify := func(node sqlparser.SQLNode, avoidAliases bool) {
		if node == nil {
			return
		}
		_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
			switch x := n.(type) {
			case *sqlparser.Subquery, *sqlparser.DerivedTable:
				return false, nil
			case *sqlparser.ColName:
				if !x.Qualifier.IsEmpty() || (avoidAliases && aliases[x.Name.Lowered()]) {
					return false, nil
				}
				owner := ""
				for _, t := range tables {
					for _, c := range t.cols {
						if strings.EqualFold(c, x.Name.String()) {
							if owner != "" {
								return false, nil // ambiguous: leave it
							}
							owner = t.alias
						}
					}
				}
				if owner != "" {
					x.Qualifier = sqlparser.TableName{Name: sqlparser.NewIdentifierCS(owner)}
				}
				return false, nil
			}
			return true, nil
		}, node)
	}
	if p.SelectExprs != nil {
		for _, e := range p.SelectExprs.Exprs {
			if ae, ok := e.(*sqlparser.AliasedExpr); ok {
				qualify(ae.Expr, false)
			}
		}
	}
	for _, te := range p.From {
		qualify(te, false)
	}
	if p.Where != nil {
		qualify(p.Where.Expr, false)
	}
	if p.GroupBy != nil {
		for _, e := range p.GroupBy.Exprs {
			qualify(e, true)
		}
	}
	if p.Having != nil {
		qualify(p.Having.Expr, true)
	}
	for _, o := range p.OrderBy {
		qualify(o.Expr, true)
	}
}
