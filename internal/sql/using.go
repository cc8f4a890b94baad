package sql

import (
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// USING and NATURAL joins. `A JOIN B USING (c, …)` joins on A.c = B.c for
// each listed column, which must name exactly one column on each side
// (1054 "Unknown column 'c' in 'from clause'", 1052 when ambiguous);
// NATURAL JOIN lists every column name both sides have (none: a cross
// join). The joined columns are coalesced: SELECT * shows each once, first,
// in the order the left side has them, then the left side's other columns,
// then the right side's (MySQL's and the SQL standard's order); an
// unqualified reference to one means the leftmost table's column (for a
// RIGHT JOIN, written right to left, the right table's). fromBuilder.star
// keeps that order as the FROM clause is built, join by join.

// starCol is a column of SELECT *: column col of FROM item item.
type starCol struct {
	item, col int
}

// name is the column's name.
func (b *fromBuilder) name(c starCol) string {
	return b.items[c.item].def.Columns[c.col].Name
}

// joinUsing returns the join conditions of t's USING list or NATURAL
// join, whose left side's SELECT * columns are b.star[mark:lmark] and
// right side's b.star[lmark:] (for a RIGHT JOIN, built right to left, the
// written right side is the left one here), and reorders those columns for
// SELECT *.
func (b *fromBuilder) joinUsing(t *sqlparser.JoinTableExpr, mark, lmark int) ([]sqlparser.Expr, error) {
	left, right := b.star[mark:lmark:lmark], b.star[lmark:]
	var names []string
	switch t.Join {
	case sqlparser.NaturalJoinType, sqlparser.NaturalLeftJoinType, sqlparser.NaturalRightJoinType:
		for _, l := range left {
			n := b.name(l)
			for _, r := range right {
				if strings.EqualFold(n, b.name(r)) {
					names = append(names, n)
					break
				}
			}
		}
	default:
		if t.Condition != nil {
			for _, c := range t.Condition.Using {
				names = append(names, c.String())
			}
		}
	}
	if len(names) == 0 {
		if t.Join == sqlparser.RightJoinType {
			// A RIGHT JOIN is built right side first; SELECT * still
			// lists the columns as written (a NATURAL RIGHT JOIN without
			// common columns keeps the right side first, as MySQL does).
			b.star = append(b.star[:mark], append(append([]starCol(nil), right...), left...)...)
		}
		return nil, nil
	}
	if b.using == nil {
		b.using = map[string]bool{}
	}
	var conds []sqlparser.Expr
	var joined, leftRest []starCol
	usedL := map[int]bool{}
	usedR := map[int]bool{}
	for _, n := range names {
		li, err := b.findUsing(left, n)
		if err != nil {
			return nil, err
		}
		ri, err := b.findUsing(right, n)
		if err != nil {
			return nil, err
		}
		if usedL[li] {
			continue // USING (a, a)
		}
		usedL[li], usedR[ri] = true, true
		b.using[strings.ToLower(n)] = true
		l, r := left[li], right[ri]
		conds = append(conds, &sqlparser.ComparisonExpr{
			Operator: sqlparser.EqualOp,
			Left:     b.colRef(l),
			Right:    b.colRef(r),
		})
	}
	// SELECT *: the joined columns in the left side's order, then the
	// rest of the left side, then the rest of the right side.
	for i, l := range left {
		if usedL[i] {
			joined = append(joined, l)
		} else {
			leftRest = append(leftRest, l)
		}
	}
	order := append(joined, leftRest...)
	for i, r := range right {
		if !usedR[i] {
			order = append(order, r)
		}
	}
	b.star = append(b.star[:mark], order...)
	return conds, nil
}

// findUsing returns the index of the one column of cols named n.
func (b *fromBuilder) findUsing(cols []starCol, n string) (int, error) {
	found := -1
	for i, c := range cols {
		if !strings.EqualFold(b.name(c), n) {
			continue
		}
		if found >= 0 {
			return 0, sqlerr.New(sqlerror.ERNonUniq, sqlerror.SSConstraintViolation, "Column '%s' in from clause is ambiguous", n)
		}
		found = i
	}
	if found < 0 {
		return 0, sqlerr.BadField(n, "from clause")
	}
	return found, nil
}

// colRef is a qualified reference to a SELECT * column.
func (b *fromBuilder) colRef(c starCol) *sqlparser.ColName {
	it := b.items[c.item]
	return sqlparser.NewColNameWithQualifier(b.name(c), sqlparser.TableName{Name: sqlparser.NewIdentifierCS(it.alias)})
}
