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
		ee := NewExpressionEnv(t.Context(), map[string]*querypb.BindVariable{}, NewEmptyVCursor(env, nil))
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
