package plan

import (
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
)

// InnerNames are the tables of a subquery's FROM clause and their columns,
// for telling its own columns from the enclosing query's (semi-joins,
// decorrelation).
type InnerNames struct {
	tables map[string]map[string]bool // alias → column names (lower case)
	// Defs are the tables, in FROM order.
	Defs []*catalog.Table
}

// Add adds table def under alias.
func (n *InnerNames) Add(alias string, def *catalog.Table) {
	if n.tables == nil {
		n.tables = map[string]map[string]bool{}
	}
	cols := map[string]bool{}
	for _, col := range def.Columns {
		cols[strings.ToLower(col.Name)] = true
	}
	n.tables[strings.ToLower(alias)] = cols
	n.Defs = append(n.Defs, def)
}

// Refs reports whether e reads columns of the subquery's own tables (in)
// and columns that are not theirs (out, the enclosing query's).
func (n *InnerNames) Refs(e sqlparser.SQLNode) (in, out bool) {
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		cn, ok := node.(*sqlparser.ColName)
		if !ok {
			return true, nil
		}
		if n.Own(cn) {
			in = true
		} else {
			out = true
		}
		return false, nil
	}, e)
	return in, out
}

// Own reports whether the column resolves in the subquery's own tables
// (MySQL resolves a name in the innermost query that has it).
func (n *InnerNames) Own(cn *sqlparser.ColName) bool {
	name := strings.ToLower(cn.Name.String())
	if q := cn.Qualifier; !q.IsEmpty() {
		cols, ok := n.tables[strings.ToLower(q.Name.String())]
		return ok && cols[name]
	}
	for _, cols := range n.tables {
		if cols[name] {
			return true
		}
	}
	return false
}
