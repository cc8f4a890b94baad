package builtins

import (
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// Compile-time result types of the functions (Func.Type), so that their
// column metadata is known at PREPARE, as MySQL's is, and agrees with the
// values sent. Each type here must describe exactly what the
// function returns (sqltypes type, and the fractional digits of temporal
// values); when that depends on values only known at execution, the type is
// left invalid and the metadata comes from the rows.

// typeOf is a TypeFunc that does not depend on the arguments. Text is
// in the connection collation.
func typeOf(t sqltypes.Type) TypeFunc {
	return func(env TypeEnv, _ []sqlparser.Expr, _ []evalengine.Type) evalengine.Type {
		coll := collations.ID(collations.CollationBinaryID)
		if sqltypes.IsText(t) {
			coll = env.ConnCollation()
		}
		return evalengine.NewType(t, coll)
	}
}

// argType0 is the type of the first argument (ANY_VALUE).
func argType0(_ TypeEnv, _ []sqlparser.Expr, types []evalengine.Type) evalengine.Type {
	return types[0]
}

// caseType is UPPER/LOWER's type (changeCase): a text or binary argument's
// own type, VARCHAR for anything else.
func caseType(env TypeEnv, args []sqlparser.Expr, types []evalengine.Type) evalengine.Type {
	t := types[0]
	switch {
	case !t.Valid():
		return t
	case sqltypes.IsText(t.Type()) || sqltypes.IsBinary(t.Type()):
		t.SetNullability(true)
		return t
	}
	return typeOf(sqltypes.VarChar)(env, args, types)
}

// strResultType is the type of strResult(s, like...) over the arguments at
// the given indexes (-1: all remaining): VARBINARY when one is binary,
// VARCHAR otherwise.
func strResultType(idx ...int) TypeFunc {
	return func(env TypeEnv, args []sqlparser.Expr, types []evalengine.Type) evalengine.Type {
		var like []evalengine.Type
		for k, i := range idx {
			if i < 0 {
				like = append(like, types[idx[k-1]+1:]...)
				break
			}
			if i < len(types) {
				like = append(like, types[i])
			}
		}
		// The result takes the collation of its first string argument
		// (SUBSTRING_INDEX(bin_col, ...) is utf8mb4_bin), the connection's
		// when none is a string.
		coll := collations.Unknown
		for _, t := range like {
			if !t.Valid() {
				return evalengine.Type{}
			}
			if sqltypes.IsBinary(t.Type()) {
				return evalengine.NewTypeEx(sqltypes.VarBinary, collations.CollationBinaryID, true, 0, 0, nil)
			}
			if coll == collations.Unknown && sqltypes.IsText(t.Type()) && t.Collation() != collations.Unknown {
				coll = t.Collation()
			}
		}
		if coll == collations.Unknown {
			coll = env.ConnCollation()
		}
		return evalengine.NewTypeEx(sqltypes.VarChar, coll, true, 0, 0, nil)
	}
}

// temporalArg is what the compiler knows of a temporal function argument:
// its kind (as tempArg will parse it) and fractional digits.
type temporalArg struct {
	kind tkind
	prec int
}

// staticTemporal returns the kind and precision argument i will have at
// execution, when they are known at compile time: a DATE, DATETIME,
// TIMESTAMP or TIME typed expression, or a string literal.
func staticTemporal(args []sqlparser.Expr, types []evalengine.Type, i int, wantTime bool) (temporalArg, bool) {
	t := types[i]
	if t.Valid() {
		switch t.Type() {
		case sqltypes.Date:
			return temporalArg{kind: tkDate}, true
		case sqltypes.Datetime, sqltypes.Timestamp:
			return temporalArg{kind: tkDatetime, prec: int(temporalPrecision(t))}, true
		case sqltypes.Time:
			return temporalArg{kind: tkTime, prec: int(temporalPrecision(t))}, true
		}
	}
	lit, ok := args[i].(*sqlparser.Literal)
	if !ok || lit.Type != sqlparser.StrVal {
		return temporalArg{}, false
	}
	var m mtime
	var trailing bool
	if wantTime {
		m, trailing, ok = parseTimeString(lit.Val)
	} else {
		m, trailing, ok = parseDatetimeString(lit.Val)
	}
	if !ok || trailing {
		return temporalArg{}, false
	}
	if !wantTime && m.kind == tkTime {
		m.kind = tkDatetime // timeOnToday
	}
	return temporalArg{kind: m.kind, prec: m.prec}, true
}

// temporalPrecision is the fractional-second digits of a DATETIME,
// TIMESTAMP or TIME type: evalengine keeps them in Size, strata's column
// types in both Size and Scale. (internal/sql's column metadata has the
// same function; builtins cannot import it.)
func temporalPrecision(t evalengine.Type) uint32 {
	return uint32(min(max(t.Size(), t.Scale(), 0), 6))
}

func temporalType(kind tkind, prec int) evalengine.Type {
	t := sqltypes.Datetime
	switch kind {
	case tkDate:
		t, prec = sqltypes.Date, 0
	case tkTime:
		t = sqltypes.Time
	}
	return evalengine.NewTypeEx(t, collations.CollationBinaryID, true, int32(prec), int32(prec), nil)
}

// addTimeType is ADDTIME/SUBTIME's type (addTime): a TIME plus a
// TIME is a TIME, a DATETIME (or DATE) plus a TIME a DATETIME, with the
// larger precision.
func addTimeType(_ TypeEnv, args []sqlparser.Expr, types []evalengine.Type) evalengine.Type {
	a, ok1 := staticTemporal(args, types, 0, true)
	b, ok2 := staticTemporal(args, types, 1, true)
	if !ok1 || !ok2 || b.kind != tkTime {
		return evalengine.Type{}
	}
	kind := tkDatetime
	if a.kind == tkTime {
		kind = tkTime
	}
	return temporalType(kind, max(a.prec, b.prec))
}

// timeDiffType is TIMEDIFF's type: a TIME with the larger precision.
func timeDiffType(_ TypeEnv, args []sqlparser.Expr, types []evalengine.Type) evalengine.Type {
	a, ok1 := staticTemporal(args, types, 0, true)
	b, ok2 := staticTemporal(args, types, 1, true)
	if !ok1 || !ok2 {
		return evalengine.Type{}
	}
	return temporalType(tkTime, max(a.prec, b.prec))
}

// timestampType is TIMESTAMP(expr[, time])'s type: a DATETIME.
func timestampType(_ TypeEnv, args []sqlparser.Expr, types []evalengine.Type) evalengine.Type {
	a, ok := staticTemporal(args, types, 0, false)
	if !ok {
		return evalengine.Type{}
	}
	prec := a.prec
	if len(args) > 1 {
		b, ok := staticTemporal(args, types, 1, true)
		if !ok {
			return evalengine.Type{}
		}
		prec = max(prec, b.prec)
	}
	return temporalType(tkDatetime, prec)
}

// strToDateType is STR_TO_DATE's type when the format is a constant: DATE,
// DATETIME or TIME by the format's parts, with 6 digits for %f.
func strToDateType(_ TypeEnv, args []sqlparser.Expr, _ []evalengine.Type) evalengine.Type {
	lit, ok := args[1].(*sqlparser.Literal)
	if !ok || lit.Type != sqlparser.StrVal {
		return evalengine.Type{}
	}
	kind, frac := strToDateKind(lit.Val)
	prec := 0
	if frac {
		prec = 6
	}
	return temporalType(kind, prec)
}
