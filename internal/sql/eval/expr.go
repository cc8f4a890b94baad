package eval

import (
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// Expr is a compiled expression: an evalengine expression plus slots —
// values evalengine cannot compute (missing functions, subqueries) that are
// computed first and passed in as bind variables.
type Expr struct {
	e     evalengine.Expr
	Slots []Slot
	// Static is the compile-time result type when known.
	Static evalengine.Type
	// arg is set when the expression is just a bind variable (a prepared
	// statement's ?): its value is read without evaluation.
	arg string
}

// Slot is a value an expression reads as the bind variable Name, computed
// by Fn before the expression is evaluated.
type Slot struct {
	Name string
	Fn   func(ex *Ctx, row Row) (sqltypes.Value, error)
	// Type is the compile-time type of Fn's values, when known: it types an
	// expression that is just the slot (column metadata at PREPARE).
	Type evalengine.Type
	// fromColumn: a text result derived from a column (LOWER(col)), which
	// compares with the column's implicit coercibility, not as a literal.
	fromColumn bool
}
