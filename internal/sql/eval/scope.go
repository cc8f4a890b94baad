package eval

import (
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// Column is one column visible to expressions: a table column or a derived
// value.
type Column struct {
	DB, Table string // Table is the alias used in the query
	Name      string
	Col       *catalog.Column // nil for derived columns
	Tbl       *catalog.Table
	ColIdx    int
	Type      evalengine.Type
	Field     *querypb.Field
	// Hidden: a semi-joined table's column, resolved only by its
	// table's internal name (internal/sql's semijoin.go).
	Hidden bool
}

// Scope resolves column names to offsets in the row an expression sees:
// Cols[i] is the value at row[i].
type Scope struct {
	Cols []Column
	// OffsetTypes gives the types of Offset nodes (aggregates, VALUES())
	// by the text of their Original expression (Compile clones the AST, so
	// the node itself is not the key).
	OffsetTypes map[string]evalengine.Type
	// Where names the clause for error messages ("field list", "where clause").
	Where string
	// Coalesced names columns joined with USING.
	Coalesced map[string]bool
}

// Resolve returns the offset of the column name refers to: 1054 when no
// column has that name, 1052 when two tables' columns do.
func (sc *Scope) Resolve(name *sqlparser.ColName) (int, error) {
	col := name.Name.String()
	qual := name.Qualifier.Name.String()
	qdb := name.Qualifier.Qualifier.String()
	found := -1
	for i := range sc.Cols {
		c := &sc.Cols[i]
		if !strings.EqualFold(c.Name, col) {
			continue
		}
		if qual != "" && c.Table != qual || c.Hidden && qual == "" {
			continue
		}
		if qdb != "" && c.DB != qdb {
			continue
		}
		if found >= 0 {
			if qual == "" && sc.Coalesced[strings.ToLower(col)] {
				continue
			}
			if qual == "" && sc.Cols[found].Table != c.Table {
				return 0, sqlerr.New(sqlerror.ERNonUniq, sqlerror.SSConstraintViolation, "Column '%s' in %s is ambiguous", col, sc.WhereName())
			}
			continue
		}
		found = i
	}
	if found < 0 {
		full := col
		if qual != "" {
			full = qual + "." + col
		}
		return 0, sqlerr.BadField(full, sc.WhereName())
	}
	return found, nil
}

// WhereName is the clause error messages name ("field list" by default).
func (sc *Scope) WhereName() string {
	if sc.Where == "" {
		return "field list"
	}
	return sc.Where
}

// ResolveType returns the type of a column reference or of an Offset node
// (OffsetTypes); false when it is unknown.
func (sc *Scope) ResolveType(e sqlparser.Expr) (evalengine.Type, bool) {
	switch e := e.(type) {
	case *sqlparser.ColName:
		i, err := sc.Resolve(e)
		if err != nil {
			return evalengine.Type{}, false
		}
		t := sc.Cols[i].Type
		return t, t.Valid()
	default:
		if sc.OffsetTypes != nil {
			if t, ok := sc.OffsetTypes[sqlparser.String(e)]; ok {
				return t, t.Valid()
			}
		}
	}
	return evalengine.Type{}, false
}

// AddHidden appends the columns of a semi-joined table under its internal
// name, visible only to references qualified with it.
func (sc *Scope) AddHidden(t *catalog.Table, name string) {
	from := len(sc.Cols)
	sc.AddTable(t, name)
	for i := from; i < len(sc.Cols); i++ {
		sc.Cols[i].Hidden = true
	}
}

// AddTable appends the columns of a table under alias.
func (sc *Scope) AddTable(t *catalog.Table, alias string) {
	for i := range t.Columns {
		c := &t.Columns[i]
		sc.Cols = append(sc.Cols, Column{
			DB: t.DB, Table: alias, Name: c.Name, Col: c, Tbl: t, ColIdx: i,
			Type:  coltype.EvalType(c),
			Field: coltype.Field(t, i, ""),
		})
	}
}
