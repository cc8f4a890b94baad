package sql

import (
	"testing"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// TestExprColumnType checks the column types CREATE TABLE … SELECT gives
// expressions, as MySQL 8 does.
func TestExprColumnType(t *testing.T) {
	utf8 := collations.ID(45) // utf8mb4_general_ci
	num := collations.ID(collations.CollationBinaryID)
	for _, tc := range []struct {
		typ  evalengine.Type
		lit  *sqlparser.Literal
		want string
	}{
		{evalengine.NewTypeEx(sqltypes.Int64, num, false, 0, 0, nil), &sqlparser.Literal{Type: sqlparser.IntVal, Val: "1"}, "int NOT NULL DEFAULT '0'"},
		{evalengine.NewTypeEx(sqltypes.Int64, num, false, 0, 0, nil), &sqlparser.Literal{Type: sqlparser.IntVal, Val: "9999999999"}, "bigint NOT NULL DEFAULT '0'"},
		{evalengine.NewTypeEx(sqltypes.Int64, num, false, 0, 0, nil), nil, "bigint NOT NULL DEFAULT '0'"},
		{evalengine.NewTypeEx(sqltypes.Uint32, num, true, 0, 0, nil), nil, "int unsigned DEFAULT NULL"},
		{evalengine.NewTypeEx(sqltypes.Decimal, num, false, 0, 0, nil), &sqlparser.Literal{Type: sqlparser.DecimalVal, Val: "-12.345"}, "decimal(5,3) NOT NULL DEFAULT '0'"},
		{evalengine.NewTypeEx(sqltypes.Decimal, num, true, 8, 2, nil), nil, "decimal(8,2) DEFAULT NULL"},
		{evalengine.NewTypeEx(sqltypes.Float64, num, false, 0, 0, nil), nil, "double NOT NULL DEFAULT '0'"},
		{evalengine.NewTypeEx(sqltypes.VarChar, utf8, false, 0, 0, nil), &sqlparser.Literal{Type: sqlparser.StrVal, Val: "héllo"}, "varchar(5) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL DEFAULT ''"},
		{evalengine.NewTypeEx(sqltypes.VarChar, utf8, true, 20000, 0, nil), nil, "longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL"},
		{evalengine.NewTypeEx(sqltypes.VarBinary, collations.CollationBinaryID, true, 10, 0, nil), nil, "varbinary(10) DEFAULT NULL"},
		{evalengine.NewTypeEx(sqltypes.Datetime, num, false, 0, 3, nil), nil, "datetime(3) NOT NULL"},
		{evalengine.NewTypeEx(sqltypes.Date, num, true, 0, 0, nil), nil, "date DEFAULT NULL"},
		{evalengine.NewTypeEx(sqltypes.Null, num, true, 0, 0, nil), nil, "binary(0) DEFAULT NULL"},
	} {
		got, err := exprColumnType(tc.typ, tc.lit)
		if err != nil {
			t.Errorf("%v: %v", tc.typ, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%v %v: got %q, want %q", tc.typ.Type(), tc.lit, got, tc.want)
		}
	}
	if _, err := exprColumnType(evalengine.Type{}, nil); err == nil {
		t.Error("an expression without a static type must be refused")
	}
}

// TestFitValues checks that a derived type is widened to hold the rows.
func TestFitValues(t *testing.T) {
	num := collations.ID(collations.CollationBinaryID)
	rows := []sqltypes.Row{
		{sqltypes.NewDecimal("199999.98"), sqltypes.NewVarChar("abcdef"), sqltypes.NewInt32(1)},
		{sqltypes.NewDecimal("-0.125"), sqltypes.NULL, sqltypes.NewInt64(1 << 40)},
	}
	d, _ := fitValues(evalengine.NewTypeEx(sqltypes.Decimal, num, false, 7, 2, nil), rows, 0)
	if d.Size() != 9 || d.Scale() != 3 || d.Nullable() {
		t.Errorf("decimal: got (%d,%d) nullable %v, want (9,3) NOT NULL", d.Size(), d.Scale(), d.Nullable())
	}
	s, _ := fitValues(evalengine.NewTypeEx(sqltypes.VarChar, 45, false, 3, 0, nil), rows, 1)
	if s.Size() != 6 || !s.Nullable() {
		t.Errorf("varchar: got %d nullable %v, want 6 NULL", s.Size(), s.Nullable())
	}
	i, _ := fitValues(evalengine.NewTypeEx(sqltypes.Int32, num, false, 0, 0, nil), rows, 2)
	if i.Type() != sqltypes.Int64 {
		t.Errorf("int: got %v, want INT64", i.Type())
	}
	dt, _ := fitValues(evalengine.NewTypeEx(sqltypes.Datetime, num, true, 0, 0, nil), []sqltypes.Row{{sqltypes.NewDatetime("2024-01-03 03:04:05.678")}}, 0)
	if dt.Scale() != 3 {
		t.Errorf("datetime: got %d fractional digits, want 3", dt.Scale())
	}
	neg := []sqltypes.Row{{sqltypes.NewInt64(-1)}}
	if u, err := fitValues(evalengine.NewTypeEx(sqltypes.Uint64, num, false, 0, 0, nil), neg, 0); err != nil || u.Type() != sqltypes.Int64 {
		t.Errorf("unsigned with a negative value: got %v, %v, want INT64", u.Type(), err)
	}
	if _, err := fitValues(evalengine.NewTypeEx(sqltypes.Int64, num, false, 0, 0, nil), []sqltypes.Row{{sqltypes.NewVarChar("x")}}, 0); err == nil {
		t.Error("a text value in an integer column must be refused")
	}
}
