package eval

import (
	"context"
	"errors"
	"testing"
	"time"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"
	"vitess.io/vitess/go/vt/vtenv"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/builtins"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// fakeHost is the session and planner of the tests: it records warnings,
// user variables and the subqueries it is asked to plan.
type fakeHost struct {
	env      *vtenv.Environment
	seq      uint64
	warnings []sqlerror.ErrorCode
	userVars map[string]sqltypes.Value
	subs     []SubqueryKind
}

func (h *fakeHost) Warn(code sqlerror.ErrorCode, _ string)                { h.warnings = append(h.warnings, code) }
func (h *fakeHost) StrictMode() bool                                      { return true }
func (h *fakeHost) NoZeroDates() bool                                     { return false }
func (h *fakeHost) SysVar(string) (sqltypes.Value, bool)                  { return sqltypes.NULL, false }
func (h *fakeHost) ConnID() uint32                                        { return 7 }
func (h *fakeHost) UserLocks() *builtins.UserLocks                        { return nil }
func (h *fakeHost) ConnCollation() collations.ID                          { return collations.ID(45) }
func (h *fakeHost) ColumnDefault(*catalog.Column) (sqltypes.Value, error) { return sqltypes.NULL, nil }
func (h *fakeHost) SetUserVar(name string, v sqltypes.Value) sqltypes.Value {
	h.userVars[name] = v
	return v
}

func (h *fakeHost) NextSeq() uint64 { h.seq++; return h.seq }

// Subquery plans every subquery as one that returns a row: EXISTS is 1.
func (h *fakeHost) Subquery(c *Compiler, _ *sqlparser.Subquery, kind SubqueryKind, _ sqlparser.Expr, _ sqlparser.ComparisonExprOperator) (*Slot, error) {
	h.subs = append(h.subs, kind)
	return &Slot{Name: c.NextSlotName(), Fn: func(*Ctx, Row) (sqltypes.Value, error) {
		return sqltypes.NewInt64(1), nil
	}}, nil
}

// The fake host is also the VCursor constant folding reads.
func (h *fakeHost) TimeZone() *time.Location        { return time.UTC }
func (h *fakeHost) GetKeyspace() string             { return "" }
func (h *fakeHost) SQLMode() string                 { return "" }
func (h *fakeHost) Environment() *vtenv.Environment { return h.env }
func (h *fakeHost) SetLastInsertID(uint64)          {}

var (
	_ Host               = (*fakeHost)(nil)
	_ Planner            = (*fakeHost)(nil)
	_ evalengine.VCursor = (*fakeHost)(nil)
)

func intType() evalengine.Type {
	return evalengine.NewTypeEx(sqltypes.Int64, collations.CollationBinaryID, true, 0, 0, nil)
}

func textType() evalengine.Type {
	return evalengine.NewTypeEx(sqltypes.VarChar, collations.ID(45), true, 0, 0, nil)
}

// setup returns a compiler over t1(a, b, s) and t2(a) and an execution
// context, both with h as their host.
func setup(t *testing.T) (*fakeHost, *Compiler, *Ctx) {
	t.Helper()
	h := &fakeHost{env: vtenv.NewTestEnv(), userVars: map[string]sqltypes.Value{}}
	sc := &Scope{Cols: []Column{
		{Table: "t1", Name: "a", Type: intType()},
		{Table: "t1", Name: "b", Type: intType()},
		{Table: "t1", Name: "s", Type: textType()},
		{Table: "t2", Name: "a", Type: intType()},
	}}
	c := &Compiler{Scope: sc, Names: new([]string), Planner: h, Settings: Settings{
		Collation: collations.ID(45), DivPrecision: 4, Env: h.env, VCursor: h,
	}}
	x := &Ctx{}
	x.Init(context.Background(), nil, h, h)
	return h, c, x
}

func compile(t *testing.T, c *Compiler, text string) (*Expr, error) {
	t.Helper()
	e, err := sqlparser.NewTestParser().ParseExpr(text)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	return c.Compile(e)
}

func mustEval(t *testing.T, c *Compiler, x *Ctx, text string, row Row) sqltypes.Value {
	t.Helper()
	e, err := compile(t, c, text)
	if err != nil {
		t.Fatalf("compile %q: %v", text, err)
	}
	v, err := x.Eval(e, row)
	if err != nil {
		t.Fatalf("eval %q: %v", text, err)
	}
	return v
}

func errCode(err error) sqlerror.ErrorCode {
	var se *sqlerror.SQLError
	if errors.As(err, &se) {
		return sqlerror.ErrorCode(se.Num)
	}
	return 0
}

func TestResolveErrors(t *testing.T) {
	_, c, _ := setup(t)
	for _, tc := range []struct {
		expr string
		code sqlerror.ErrorCode
	}{
		{"a + 1", sqlerror.ERNonUniq},    // t1.a or t2.a
		{"zz", sqlerror.ERBadFieldError}, // no such column
		{"t3.b", sqlerror.ERBadFieldError},
		{"t2.a + b", 0},
	} {
		_, err := compile(t, c, tc.expr)
		if got := errCode(err); got != tc.code || (tc.code == 0) != (err == nil) {
			t.Errorf("%s: error %v (code %d), want code %d", tc.expr, err, got, tc.code)
		}
	}
}

func TestEvalOverRow(t *testing.T) {
	_, c, x := setup(t)
	row := Row{sqltypes.NewInt64(1), sqltypes.NewInt64(3), sqltypes.NewVarChar("x,y,z"), sqltypes.NewInt64(10)}
	if v := mustEval(t, c, x, "t1.a + b * t2.a", row); v.ToString() != "31" {
		t.Errorf("t1.a + b * t2.a = %s, want 31", v.ToString())
	}
	e, err := compile(t, c, "b * 2")
	if err != nil {
		t.Fatal(err)
	}
	if !e.Static.Valid() || e.Static.Type() != sqltypes.Int64 {
		t.Errorf("static type of b * 2: %v, want BIGINT", e.Static)
	}
	ok, err := x.EvalBool(e, Row{sqltypes.NULL, sqltypes.NewInt64(0), sqltypes.NULL, sqltypes.NULL})
	if err != nil || ok {
		t.Errorf("0 * 2 as a condition: %v, %v; want false", ok, err)
	}
}

func TestBuiltinSlot(t *testing.T) {
	_, c, x := setup(t)
	e, err := compile(t, c, "FIND_IN_SET('y', s)")
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Slots) != 1 {
		t.Fatalf("FIND_IN_SET compiled to %d slots, want 1 (evalengine lacks it)", len(e.Slots))
	}
	row := Row{sqltypes.NULL, sqltypes.NULL, sqltypes.NewVarChar("x,y,z"), sqltypes.NULL}
	v, err := x.Eval(e, row)
	if err != nil || v.ToString() != "2" {
		t.Errorf("FIND_IN_SET('y', 'x,y,z') = %v, %v; want 2", v, err)
	}
}

func TestDivisionByZeroWarns(t *testing.T) {
	h, c, x := setup(t)
	row := Row{sqltypes.NewInt64(6), sqltypes.NewInt64(0), sqltypes.NULL, sqltypes.NULL}
	if v := mustEval(t, c, x, "t1.a / b", row); !v.IsNull() {
		t.Errorf("6 / 0 = %s, want NULL", v.ToString())
	}
	if len(h.warnings) != 1 || h.warnings[0] != 1365 {
		t.Errorf("warnings after 6 / 0: %v, want [1365]", h.warnings)
	}
	h.warnings = nil
	row[1] = sqltypes.NewInt64(4)
	if v := mustEval(t, c, x, "t1.a / b", row); v.ToString() != "1.5000" {
		t.Errorf("6 / 4 = %s, want 1.5000", v.ToString())
	}
	if len(h.warnings) != 0 {
		t.Errorf("warnings after 6 / 4: %v, want none", h.warnings)
	}
}

func TestSessionValuesAndAssignment(t *testing.T) {
	h, c, x := setup(t)
	row := Row{sqltypes.NewInt64(41), sqltypes.NULL, sqltypes.NULL, sqltypes.NULL}
	if v := mustEval(t, c, x, "@v := t1.a + 1", row); v.ToString() != "42" {
		t.Errorf("@v := 41 + 1 = %s, want 42", v.ToString())
	}
	if v, ok := h.userVars["v"]; !ok || v.ToString() != "42" {
		t.Errorf("host's @v = %v (set %v), want 42", v, ok)
	}
	*c.Names = nil
	if _, err := compile(t, c, "@w + @@autocommit + CONNECTION_ID()"); err != nil {
		t.Fatal(err)
	}
	want := []string{BVUserVar + "w", BVSysVar + "autocommit", BVConnID}
	if got := *c.Names; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("session values named %v, want %v", got, want)
	}
	if _, err := compile(t, c, "@@no_such_variable"); errCode(err) != sqlerror.ERUnknownSystemVariable {
		t.Errorf("@@no_such_variable: %v, want 1193", err)
	}
}

func TestSubqueryThroughPlanner(t *testing.T) {
	h, c, x := setup(t)
	v := mustEval(t, c, x, "EXISTS (SELECT 1) AND t1.a IN (SELECT 2)", Row{sqltypes.NewInt64(1), sqltypes.NULL, sqltypes.NULL, sqltypes.NULL})
	if v.ToString() != "1" {
		t.Errorf("= %s, want 1 (the fake planner's slots)", v.ToString())
	}
	if len(h.subs) != 2 || h.subs[0] != SubExists || h.subs[1] != SubIn {
		t.Errorf("planner asked for %v, want [EXISTS IN]", h.subs)
	}
}
