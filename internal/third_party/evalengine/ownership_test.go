package evalengine

// strata: tests for the ownership invariant of this fork — evaluating an
// expression never writes into memory the evaluation did not allocate: the
// caller's row, its bind variables, the literals of a translated (cached,
// shared) expression, the expression nodes themselves, or the package-level
// boolean values.

import (
	"bytes"
	"strings"
	"testing"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/sqlparser"
	"vitess.io/vitess/go/vt/vtenv"
)

// ownershipColumns are the columns the test expressions can use.
var ownershipColumns = []struct {
	name string
	typ  sqltypes.Type
	coll collations.ID
}{
	{"i", sqltypes.Int64, collations.CollationBinaryID},
	{"f", sqltypes.Float32, collations.CollationBinaryID},
	{"d", sqltypes.Decimal, collations.CollationBinaryID},
	{"s", sqltypes.VarChar, collations.ID(45)},
	{"b", sqltypes.VarBinary, collations.CollationBinaryID},
	{"t", sqltypes.Datetime, collations.CollationBinaryID},
	{"j", sqltypes.TypeJSON, collations.CollationBinaryID},
}

// ownershipExprs cover the operators and functions that rewrite values:
// boolean logic over IN (whose slow path produced the shared singletons),
// bitwise operators on binary strings (which wrote into their operand),
// CAST/COLLATE/CONVERT (which retype and truncate their operand),
// GREATEST/LEAST (which stored a precision in the expression node) and
// string functions.
var ownershipExprs = []string{
	"f IN (18.11) OR i > 30",
	"f IN (18.11, 1.5) AND i > 30",
	"f NOT IN (18.11) XOR i > 30",
	"NOT (f IN (1.5)) OR i IN (1, 2, 91)",
	"s IN ('a', 'xyz ', b) OR i > 0",
	"(i, s) IN ((91, 'xyz'), (1, 'a')) OR f > 0",
	"1 = 2 OR i > 30",
	"FALSE OR TRUE",
	"~b",
	"b | _binary x'f0f0'",
	"b & _binary x'3333'",
	"b ^ _binary x'ffff'",
	"~_binary x'0f0f'",
	"_binary x'0f0f' | b",
	"CAST(s AS CHAR(1))",
	"CAST('abcdef' AS CHAR(2))",
	"CAST(b AS BINARY(1))",
	"CAST(_binary 'abcdef' AS BINARY(2))",
	"CAST('abc' AS BINARY(8))",
	"CONVERT(s USING latin1)",
	"s COLLATE utf8mb4_bin",
	"'abc' COLLATE utf8mb4_bin",
	"GREATEST(t, '2020-01-01')",
	"LEAST(t, '2020-01-01 10:00:00.123')",
	"GREATEST(1, 2.50, f)",
	"CONCAT(s, b, 'x')",
	"REVERSE(s)",
	"UPPER(s)",
	"LOWER(s)",
	"SUBSTRING(s, 2)",
	"TRIM(s)",
	"REPLACE(s, 'y', 'Y')",
	"LPAD(s, 6, '*')",
	"HEX(b)",
	"UNHEX('4142')",
	"COALESCE(NULL, s, 'z')",
	"IF(i > 1, s, b)",
	"CASE WHEN i > 1 THEN s ELSE 'q' END",
	"i + 1",
	"-i",
	"d * 2",
	"d / 3",
	"i DIV 2",
	"i % 7",
	"ROUND(d, 1)",
	"TRUNCATE(f, 1)",
	"JSON_EXTRACT(j, '$.a')",
	"JSON_ARRAY(TRUE, FALSE, i)",
	"DATE_ADD(t, INTERVAL 1 DAY)",
	"t + INTERVAL 1 SECOND",
	"s LIKE 'x%' OR b LIKE 'a%'",
	"s REGEXP 'y'",
	"INSERT(s, 1, 1, 'Q')",
	"ISNULL(s) OR i IS NULL",
}

// ownershipRow returns a fresh row; a second call returns equal bytes, to
// compare against after evaluation.
func ownershipRow() []sqltypes.Value {
	return []sqltypes.Value{
		sqltypes.NewInt64(91),
		sqltypes.MakeTrusted(sqltypes.Float32, []byte("47.78")),
		sqltypes.MakeTrusted(sqltypes.Decimal, []byte("12.345")),
		sqltypes.NewVarChar("xyz "),
		sqltypes.MakeTrusted(sqltypes.VarBinary, []byte{0x0f, 0xf0}),
		sqltypes.MakeTrusted(sqltypes.Datetime, []byte("2021-03-04 05:06:07")),
		sqltypes.MakeTrusted(sqltypes.TypeJSON, []byte(`{"a": [1, 2]}`)),
	}
}

func TestEvaluationOwnsWhatItWrites(t *testing.T) {
	env := vtenv.NewTestEnv()
	resolveColumn := func(name *sqlparser.ColName) (int, error) {
		for i, c := range ownershipColumns {
			if strings.EqualFold(c.name, name.Name.String()) {
				return i, nil
			}
		}
		t.Fatalf("unknown column %s", sqlparser.String(name))
		return 0, nil
	}
	resolveType := func(e sqlparser.Expr) (Type, bool) {
		if col, ok := e.(*sqlparser.ColName); ok {
			i, _ := resolveColumn(col)
			c := ownershipColumns[i]
			return NewType(c.typ, c.coll), true
		}
		return Type{}, false
	}
	for _, mode := range []string{"compiled", "interpreted", "untyped", "unfolded"} {
		for _, src := range ownershipExprs {
			ast, err := env.Parser().ParseExpr(src)
			if err != nil {
				t.Fatalf("parse %q: %v", src, err)
			}
			cfg := &Config{
				ResolveColumn: resolveColumn,
				ResolveType:   resolveType,
				Collation:     collations.ID(45),
				Environment:   env,
				NoCompilation: mode != "compiled",
			}
			switch mode {
			case "untyped":
				cfg.ResolveType = nil
			case "unfolded":
				cfg.NoConstantFolding = true
			}
			expr, err := Translate(ast, cfg)
			if err != nil {
				t.Fatalf("%s %q: translate: %v", mode, src, err)
			}
			before := sqlparser.String(expr)

			row, pristine := ownershipRow(), ownershipRow()
			bv := map[string]*querypb.BindVariable{}
			ee := NewExpressionEnv(t.Context(), bv, NewEmptyVCursor(env, nil))
			ee.Row = row
			var first string
			for rep := 0; rep < 3; rep++ {
				res, err := ee.Evaluate(expr)
				got := "error: "
				if err != nil {
					got += err.Error()
				} else {
					v := res.Value(collations.ID(45))
					got = v.String()
				}
				if rep == 0 {
					first = got
				} else if got != first {
					t.Errorf("%s %q: evaluation %d gave %s, the first gave %s", mode, src, rep+1, got, first)
				}
				for i := range row {
					if row[i].Type() != pristine[i].Type() || !bytes.Equal(row[i].Raw(), pristine[i].Raw()) {
						t.Errorf("%s %q: input column %s changed to %v", mode, src, ownershipColumns[i].name, row[i])
					}
				}
				if evalBoolTrue.i != 1 || evalBoolFalse.i != 0 {
					t.Fatalf("%s %q: shared booleans changed: TRUE=%d FALSE=%d", mode, src, evalBoolTrue.i, evalBoolFalse.i)
				}
			}
			if after := sqlparser.String(expr); after != before {
				t.Errorf("%s %q: the translated expression changed from %s to %s", mode, src, before, after)
			}
		}
	}
}

// TestMultiComparisonNodeUnchanged checks that GREATEST/LEAST leave their
// expression node as translated: the temporal precision of one evaluation
// must not leak into the next (or into another session's).
func TestMultiComparisonNodeUnchanged(t *testing.T) {
	env := vtenv.NewTestEnv()
	ast, err := env.Parser().ParseExpr("GREATEST(:a, :b)")
	if err != nil {
		t.Fatal(err)
	}
	expr, err := Translate(ast, &Config{Collation: collations.ID(45), Environment: env, NoCompilation: true})
	if err != nil {
		t.Fatal(err)
	}
	call, ok := expr.(*UntypedExpr).ir.(*builtinMultiComparison)
	if !ok {
		t.Fatalf("translated to %T, not GREATEST", expr.(*UntypedExpr).ir)
	}
	prec := call.prec
	ee := NewExpressionEnv(t.Context(), map[string]*querypb.BindVariable{
		"a": sqltypes.StringBindVariable("2020-01-01 00:00:00.123456"),
		"b": sqltypes.Float64BindVariable(1.5),
	}, NewEmptyVCursor(env, nil))
	if _, err := ee.Evaluate(expr); err != nil {
		t.Fatal(err)
	}
	if call.prec != prec {
		t.Fatalf("GREATEST node precision changed from %d to %d", prec, call.prec)
	}
}
