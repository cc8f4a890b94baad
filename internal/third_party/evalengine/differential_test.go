package evalengine

// strata: the compiled VM and the interpreter must agree. Random expressions
// in the shape of the sqllogictest corpus (arithmetic, comparisons, IN lists,
// NOT, CASE, COALESCE, NULLIF, CAST of NULL, over typed and NULL columns) are
// translated both ways and evaluated over a few rows; the VM once panicked
// ("eval is nil, not *evalInt64") where the interpreter returned NULL,
// because a tuple holding a NULL was typed not nullable.

import (
	"fmt"
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/sqlparser"
	"vitess.io/vitess/go/vt/vtenv"
)

type exprGen struct {
	r     *rand.Rand
	depth int
}

func (g *exprGen) literal() string {
	switch g.r.Intn(8) {
	case 0:
		return "NULL"
	case 1:
		return "CAST( NULL AS SIGNED )"
	case 2:
		return "CAST( NULL AS DECIMAL )"
	case 3:
		return fmt.Sprintf("%d.%d", g.r.Intn(100), g.r.Intn(100))
	default:
		return fmt.Sprint(g.r.Intn(200) - 100)
	}
}

func (g *exprGen) column() string {
	return []string{"c0", "c1", "c2", "cn", "cd"}[g.r.Intn(5)]
}

func (g *exprGen) value() string {
	g.depth++
	defer func() { g.depth-- }()
	if g.depth > 4 {
		if g.r.Intn(2) == 0 {
			return g.literal()
		}
		return g.column()
	}
	switch g.r.Intn(12) {
	case 0, 1:
		return g.literal()
	case 2, 3:
		return g.column()
	case 4:
		return fmt.Sprintf("%s %s %s", g.value(), []string{"+", "-", "*", "/", "DIV", "%"}[g.r.Intn(6)], g.value())
	case 5:
		return "- " + g.value()
	case 6:
		return fmt.Sprintf("CASE %s WHEN %s THEN %s END", g.value(), g.value(), g.value())
	case 7:
		return fmt.Sprintf("CASE WHEN %s THEN %s ELSE %s END", g.cond(), g.value(), g.value())
	case 8:
		return fmt.Sprintf("COALESCE( %s, %s )", g.value(), g.value())
	case 9:
		return fmt.Sprintf("NULLIF( %s, %s )", g.value(), g.value())
	case 10:
		return fmt.Sprintf("CAST( %s AS SIGNED )", g.value())
	default:
		return "( " + g.value() + " )"
	}
}

func (g *exprGen) cond() string {
	g.depth++
	defer func() { g.depth-- }()
	if g.depth > 4 {
		return fmt.Sprintf("%s > %s", g.value(), g.value())
	}
	switch g.r.Intn(9) {
	case 0:
		return "NOT " + g.cond()
	case 1:
		return fmt.Sprintf("%s AND %s", g.cond(), g.cond())
	case 2:
		return fmt.Sprintf("%s OR %s", g.cond(), g.cond())
	case 3, 4:
		n := 1 + g.r.Intn(4)
		items := make([]string, n)
		for i := range items {
			items[i] = g.value()
		}
		not := ""
		if g.r.Intn(2) == 0 {
			not = "NOT "
		}
		return fmt.Sprintf("%s %sIN ( %s )", g.value(), not, strings.Join(items, ", "))
	case 5:
		return fmt.Sprintf("%s IS NULL", g.value())
	case 6:
		return fmt.Sprintf("%s BETWEEN %s AND %s", g.value(), g.value(), g.value())
	default:
		return fmt.Sprintf("%s %s %s", g.value(), []string{"=", "<>", "<", ">=", "<=>"}[g.r.Intn(5)], g.value())
	}
}

func TestCompiledMatchesInterpreted(t *testing.T) {
	env := vtenv.NewTestEnv()
	cols := []struct {
		name     string
		typ      sqltypes.Type
		nullable bool
	}{
		{"c0", sqltypes.Int64, true}, {"c1", sqltypes.Int64, true}, {"c2", sqltypes.Int64, false},
		{"cn", sqltypes.Int64, true}, {"cd", sqltypes.Decimal, true},
	}
	rows := [][]sqltypes.Value{
		{sqltypes.NewInt64(97), sqltypes.NewInt64(1), sqltypes.NewInt64(99), sqltypes.NULL, sqltypes.MakeTrusted(sqltypes.Decimal, []byte("4.50"))},
		{sqltypes.NewInt64(-15), sqltypes.NewInt64(0), sqltypes.NewInt64(47), sqltypes.NewInt64(3), sqltypes.NULL},
	}
	resolveColumn := func(name *sqlparser.ColName) (int, error) {
		for i, c := range cols {
			if c.name == name.Name.Lowered() {
				return i, nil
			}
		}
		return 0, fmt.Errorf("unknown column %s", name.Name)
	}
	resolveType := func(e sqlparser.Expr) (Type, bool) {
		if c, ok := e.(*sqlparser.ColName); ok {
			i, err := resolveColumn(c)
			if err != nil {
				return Type{}, false
			}
			return NewTypeEx(cols[i].typ, collations.CollationBinaryID, cols[i].nullable, 0, 2, nil), true
		}
		return Type{}, false
	}
	eval := func(src string, noCompile bool, row []sqltypes.Value) (out string) {
		defer func() {
			if r := recover(); r != nil {
				out = fmt.Sprintf("PANIC: %v", r)
			}
		}()
		ast, err := env.Parser().ParseExpr(src)
		if err != nil {
			return "parse error: " + err.Error()
		}
		expr, err := Translate(ast, &Config{
			ResolveColumn: resolveColumn, ResolveType: resolveType,
			Collation: collations.ID(45), Environment: env, NoCompilation: noCompile,
		})
		if err != nil {
			return "translate error: " + err.Error()
		}
		ee := NewExpressionEnv(t.Context(), map[string]*querypb.BindVariable{}, NewEmptyVCursor(env, time.UTC))
		ee.Row = row
		res, err := ee.Evaluate(expr)
		if err != nil {
			return "error: " + err.Error()
		}
		v := res.Value(collations.ID(45))
		if v.IsNull() {
			return "NULL"
		}
		return v.ToString()
	}
	g := &exprGen{r: rand.New(rand.NewSource(10))}
	n := 20000
	if testing.Short() {
		n = 300
	}
	fails := 0
	panicsBefore := VMPanics()
	defer func() {
		if p := VMPanics() - panicsBefore; p > 0 {
			t.Errorf("%d compiled evaluations panicked and fell back to the interpreter", p)
		}
	}()
	for i := 0; i < n && fails < 10; i++ {
		src := g.value()
		if i%2 == 1 {
			src = g.cond()
		}
		for _, row := range rows {
			compiled, interpreted := eval(src, false, row), eval(src, true, row)
			if !sameResult(compiled, interpreted) || strings.HasPrefix(compiled, "PANIC") {
				t.Errorf("%s over %v:\n  compiled    %s\n  interpreted %s", src, row, compiled, interpreted)
				fails++
				break
			}
		}
	}
}

// sameResult compares two results; numbers compare by value, so a DECIMAL
// scale, a rounding at fewer decimals or a float's last digits (the two forms
// aggregate types a little differently) do not count, but NULL against a
// value, an error or a panic does.
func sameResult(a, b string) bool {
	if a == b {
		return true
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	if math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(x)) {
		return true
	}
	// One side rounded to fewer decimals (division scale).
	digits := min(decimals(a), decimals(b))
	return math.Abs(x-y) <= 0.5*math.Pow(10, -float64(digits))+1e-12
}

func decimals(s string) int {
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

// mixedGen generates expressions over numbers, strings (a _ci and a _bin
// column) and temporal values, with NULLs, in the shape of the differential
// checks against MySQL.
type mixedGen struct{ r *rand.Rand }

func (g *mixedGen) pick(s ...string) string { return s[g.r.Intn(len(s))] }

func (g *mixedGen) intLit() string { return fmt.Sprint(g.r.Intn(40) - 10) }

func (g *mixedGen) strLit() string {
	return g.pick("'a'", "'abc'", "'abc '", "'ABC'", "''", "'x%'", "'%b%'", "' a'", "'zz'", "'2021-03-04'", "'12'", "'1.5'", "NULL")
}

func (g *mixedGen) num(d int) string {
	if d > 3 {
		return g.pick(g.intLit(), "i", "j", "d")
	}
	switch g.r.Intn(14) {
	case 0, 1:
		return g.intLit()
	case 2, 3:
		return g.pick("i", "j", "d")
	case 4:
		return fmt.Sprintf("(%s %s %s)", g.num(d+1), g.pick("+", "-", "*", "/", "DIV", "%"), g.num(d+1))
	case 5:
		return fmt.Sprintf("%s(%s)", g.pick("ABS", "SIGN", "FLOOR", "CEIL", "ROUND", "-"), g.num(d+1))
	case 6:
		return fmt.Sprintf("%s(%s)", g.pick("LENGTH", "CHAR_LENGTH", "ASCII", "BIT_LENGTH", "ORD"), g.str(d+1))
	case 7:
		return fmt.Sprintf("CASE WHEN %s THEN %s ELSE %s END", g.cond(d+1), g.num(d+1), g.num(d+1))
	case 8:
		return fmt.Sprintf("%s(%s, %s)", g.pick("IFNULL", "COALESCE", "NULLIF", "GREATEST", "LEAST"), g.num(d+1), g.num(d+1))
	case 9:
		return fmt.Sprintf("%s(%s)", g.pick("YEAR", "MONTH", "DAYOFMONTH", "DAYOFWEEK", "DAYOFYEAR", "HOUR", "QUARTER", "WEEKDAY", "TO_DAYS"), g.date(d+1))
	case 10:
		return fmt.Sprintf("DATEDIFF(%s, %s)", g.date(d+1), g.date(d+1))
	case 11:
		return fmt.Sprintf("LOCATE(%s, %s)", g.str(d+1), g.str(d+1))
	case 12:
		return fmt.Sprintf("LOCATE(%s, %s, %s)", g.str(d+1), g.str(d+1), g.num(d+1))
	default:
		return fmt.Sprintf("ROUND(%s, %d)", g.num(d+1), g.r.Intn(3))
	}
}

func (g *mixedGen) str(d int) string {
	if d > 3 {
		return g.pick(g.strLit(), "s", "sb")
	}
	switch g.r.Intn(13) {
	case 0, 1:
		return g.strLit()
	case 2, 3, 4:
		return g.pick("s", "sb")
	case 5:
		return fmt.Sprintf("CONCAT(%s, %s)", g.str(d+1), g.str(d+1))
	case 6:
		return fmt.Sprintf("%s(%s)", g.pick("UPPER", "LOWER", "TRIM", "LTRIM", "RTRIM", "REVERSE", "HEX"), g.str(d+1))
	case 7:
		return fmt.Sprintf("SUBSTRING(%s, %s, %s)", g.str(d+1), g.num(d+1), g.num(d+1))
	case 8:
		return fmt.Sprintf("REPLACE(%s, %s, %s)", g.str(d+1), g.str(d+1), g.strLit())
	case 9:
		return fmt.Sprintf("%s(%s, %s, %s)", g.pick("LPAD", "RPAD"), g.str(d+1), g.num(d+1), g.str(d+1))
	case 10:
		return fmt.Sprintf("%s(%s, %s)", g.pick("LEFT", "RIGHT", "REPEAT"), g.str(d+1), g.num(d+1))
	case 11:
		return fmt.Sprintf("CONCAT_WS(%s, %s, %s)", g.str(d+1), g.str(d+1), g.num(d+1))
	default:
		return fmt.Sprintf("IF(%s, %s, %s)", g.cond(d+1), g.str(d+1), g.str(d+1))
	}
}

func (g *mixedGen) date(d int) string {
	switch g.r.Intn(5) {
	case 0, 1:
		return g.pick("dt", "da")
	case 2:
		return g.pick("'2021-03-04'", "'2020-02-29 10:11:12'", "DATE '2019-12-31'", "NULL")
	case 3:
		return fmt.Sprintf("DATE_ADD(%s, INTERVAL %s %s)", g.pick("dt", "da"), g.num(d+1), g.pick("DAY", "MONTH", "YEAR", "HOUR", "MINUTE"))
	default:
		return fmt.Sprintf("DATE(%s)", g.pick("dt", "da", "s"))
	}
}

func (g *mixedGen) cond(d int) string {
	if d > 3 {
		return fmt.Sprintf("%s %s %s", g.num(d), g.pick("=", "<", ">=", "<>"), g.num(d))
	}
	switch g.r.Intn(12) {
	case 0:
		return "NOT " + g.cond(d+1)
	case 1:
		return fmt.Sprintf("(%s %s %s)", g.cond(d+1), g.pick("AND", "OR", "XOR"), g.cond(d+1))
	case 2:
		return fmt.Sprintf("%s IN (%s, %s, %s)", g.num(d+1), g.num(d+1), g.intLit(), g.pick("NULL", g.intLit()))
	case 3:
		return fmt.Sprintf("%s %s (%s, %s)", g.str(d+1), g.pick("IN", "NOT IN"), g.str(d+1), g.strLit())
	case 4:
		return fmt.Sprintf("%s LIKE %s", g.str(d+1), g.str(d+1))
	case 5:
		return fmt.Sprintf("%s IS %sNULL", g.pick(g.num(d+1), g.str(d+1)), g.pick("", "NOT "))
	case 6:
		return fmt.Sprintf("%s BETWEEN %s AND %s", g.num(d+1), g.num(d+1), g.num(d+1))
	case 7:
		return fmt.Sprintf("%s %s %s", g.str(d+1), g.pick("=", "<", ">", "<=>"), g.str(d+1))
	case 8:
		return fmt.Sprintf("%s %s %s", g.date(d+1), g.pick("=", "<", ">"), g.date(d+1))
	default:
		return fmt.Sprintf("%s %s %s", g.num(d+1), g.pick("=", "<", ">=", "<>", "<=>"), g.num(d+1))
	}
}

// TestCompiledMatchesInterpretedMixed is TestCompiledMatchesInterpreted
// over strings and temporal values. Compiled evaluations that fell back to
// the interpreter (a panic or an unbalanced stack: a typing or NULL-handling
// defect of the compiler, answered correctly by the interpreter) are
// counted in the log.
func TestCompiledMatchesInterpretedMixed(t *testing.T) {
	env := vtenv.NewTestEnv()
	type col struct {
		name string
		typ  Type
	}
	cols := []col{
		{"i", NewTypeEx(sqltypes.Int64, collations.CollationBinaryID, true, 0, 0, nil)},
		{"j", NewTypeEx(sqltypes.Int32, collations.CollationBinaryID, true, 0, 0, nil)},
		{"d", NewTypeEx(sqltypes.Decimal, collations.CollationBinaryID, true, 10, 2, nil)},
		{"s", NewTypeEx(sqltypes.VarChar, collations.ID(45), true, 20, 0, nil)},
		{"sb", NewTypeEx(sqltypes.VarChar, collations.ID(46), true, 20, 0, nil)},
		{"dt", NewTypeEx(sqltypes.Datetime, collations.CollationBinaryID, true, 0, 0, nil)},
		{"da", NewTypeEx(sqltypes.Date, collations.CollationBinaryID, true, 0, 0, nil)},
	}
	v := func(t sqltypes.Type, s string) sqltypes.Value { return sqltypes.MakeTrusted(t, []byte(s)) }
	rows := [][]sqltypes.Value{
		{v(sqltypes.Int64, "5"), v(sqltypes.Int32, "2"), v(sqltypes.Decimal, "1.50"), v(sqltypes.VarChar, "abc"), v(sqltypes.VarChar, "abc "), v(sqltypes.Datetime, "2021-03-04 05:06:07"), v(sqltypes.Date, "2021-03-04")},
		{v(sqltypes.Int64, "-3"), sqltypes.NULL, v(sqltypes.Decimal, "10.00"), v(sqltypes.VarChar, "ABC"), v(sqltypes.VarChar, "x%"), v(sqltypes.Datetime, "2020-02-29 23:59:59"), sqltypes.NULL},
		{sqltypes.NULL, v(sqltypes.Int32, "7"), sqltypes.NULL, sqltypes.NULL, sqltypes.NULL, sqltypes.NULL, v(sqltypes.Date, "1999-12-31")},
		{v(sqltypes.Int64, "0"), v(sqltypes.Int32, "0"), v(sqltypes.Decimal, "-2.25"), v(sqltypes.VarChar, ""), v(sqltypes.VarChar, ""), v(sqltypes.Datetime, "2000-01-01 00:00:00"), v(sqltypes.Date, "2024-02-29")},
	}
	resolveColumn := func(name *sqlparser.ColName) (int, error) {
		for i, c := range cols {
			if c.name == name.Name.Lowered() {
				return i, nil
			}
		}
		return 0, fmt.Errorf("unknown column %s", name.Name)
	}
	resolveType := func(e sqlparser.Expr) (Type, bool) {
		if c, ok := e.(*sqlparser.ColName); ok {
			if i, err := resolveColumn(c); err == nil {
				return cols[i].typ, true
			}
		}
		return Type{}, false
	}
	eval := func(src string, noCompile bool, row []sqltypes.Value) (out string) {
		defer func() {
			if r := recover(); r != nil {
				out = fmt.Sprintf("PANIC: %v", r)
			}
		}()
		ast, err := env.Parser().ParseExpr(src)
		if err != nil {
			return "parse error: " + err.Error()
		}
		expr, err := Translate(ast, &Config{
			ResolveColumn: resolveColumn, ResolveType: resolveType,
			Collation: collations.ID(45), Environment: env, NoCompilation: noCompile,
		})
		if err != nil {
			return "translate error: " + err.Error()
		}
		ee := NewExpressionEnv(t.Context(), map[string]*querypb.BindVariable{}, NewEmptyVCursor(env, time.UTC))
		ee.Row = row
		res, err := ee.Evaluate(expr)
		if err != nil {
			return "error: " + err.Error()
		}
		v := res.Value(collations.ID(45))
		if v.IsNull() {
			return "NULL"
		}
		return v.ToString()
	}
	g := &mixedGen{r: rand.New(rand.NewSource(3))}
	n := 4000
	if testing.Short() {
		n = 400
	}
	fails, fallbacks := 0, 0
	defer func() {
		// Each fallback is a compiler defect (typing or NULL shortcut) that
		// costs speed, not correctness: the interpreter answered.
		t.Logf("%d of %d expressions fell back to the interpreter on some row", fallbacks, n)
	}()
	for i := 0; i < n && fails < 15; i++ {
		var src string
		switch i % 3 {
		case 0:
			src = g.num(0)
		case 1:
			src = g.str(0)
		default:
			src = g.cond(0)
		}
		for _, row := range rows {
			before := VMPanics()
			compiled := eval(src, false, row)
			fell := VMPanics() != before
			interpreted := eval(src, true, row)
			if fell {
				fallbacks++
			}
			if !sameResult(compiled, interpreted) || strings.HasPrefix(compiled, "PANIC") {
				t.Errorf("%s over %v:\n  compiled    %s (fell back to the interpreter: %v)\n  interpreted %s", src, row, compiled, fell, interpreted)
				fails++
				break
			}
		}
	}
}
