package builtins

import (
	"errors"
	"strings"
	"testing"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
)

func TestLookup(t *testing.T) {
	for name, f := range registry {
		if name != strings.ToLower(name) || f.Eval == nil {
			t.Errorf("registered %q: names must be lower case and have an Eval", name)
		}
	}
	upper, ok1 := Lookup("upper")
	ucase, ok2 := Lookup("ucase")
	if !ok1 || !ok2 || upper != ucase {
		t.Errorf("UCASE is not UPPER's alias: %v %v", ok1, ok2)
	}
	if _, ok := Lookup("UPPER"); ok {
		t.Error("Lookup takes lower-case names only")
	}
	if _, ok := Lookup("concat"); ok {
		t.Error("CONCAT is evalengine's, not a builtin")
	}
	if f, ok := Lookup(EnumIndex); !ok || f.MaxArgs >= 0 {
		t.Errorf("%s: %v, want a variadic function", EnumIndex, ok)
	}
	if f, _ := Lookup("get_lock"); !f.Volatile {
		t.Error("GET_LOCK is not volatile")
	}
}

func TestCheckArity(t *testing.T) {
	f, _ := Lookup("substring_index")
	err := f.CheckArity("substring_index", 2)
	var se *sqlerror.SQLError
	if !errors.As(err, &se) || se.Number() != sqlerror.ERWrongParamcountToNativeFct || !strings.Contains(se.Message, "'substring_index'") {
		t.Errorf("SUBSTRING_INDEX with 2 arguments: %v", err)
	}
	if err := f.CheckArity("substring_index", 3); err != nil {
		t.Errorf("SUBSTRING_INDEX with 3 arguments: %v", err)
	}
	f, _ = Lookup("make_set")
	if f.CheckArity("make_set", 1) == nil || f.CheckArity("make_set", 100) != nil {
		t.Error("MAKE_SET takes 2 or more arguments")
	}
}

// TestEnvWarnings checks that functions report through Env.Warn.
func TestEnvWarnings(t *testing.T) {
	env := &testEnv{}
	v, _ := fnDatediff(env, []sqltypes.Value{sqltypes.NewVarChar("2020-02-30"), sqltypes.NewVarChar("2010-12-31")})
	if !v.IsNull() || len(env.warnings) != 1 || env.warnings[0].code != sqlerror.ERTruncatedWrongValue ||
		env.warnings[0].msg != "Incorrect datetime value: '2020-02-30'" {
		t.Errorf("DATEDIFF(invalid) = %v, warnings %v", v, env.warnings)
	}
	env = &testEnv{}
	v, _ = fnFormat(env, []sqltypes.Value{sqltypes.NewInt64(1234), sqltypes.NewInt64(1), sqltypes.NewVarChar("xx_YY")})
	if v.ToString() != "1,234.0" || len(env.warnings) != 1 || env.warnings[0].code != erUnknownLocale {
		t.Errorf("FORMAT(unknown locale) = %v, warnings %v", v, env.warnings)
	}
	env = &testEnv{strict: true}
	if _, err := fnSleep(env, []sqltypes.Value{sqltypes.NewInt64(-1)}); err == nil {
		t.Error("SLEEP(-1) in strict mode: no error")
	}
}

// TestEnvArgCollation checks that FIND_IN_SET compares under the collation
// Env derives from its arguments.
func TestEnvArgCollation(t *testing.T) {
	args := []sqltypes.Value{sqltypes.NewVarChar("B"), sqltypes.NewVarChar("a,b")}
	v, _ := fnFindInSet(&testEnv{coll: collations.CollationUtf8mb4ID}, args)
	if v.ToString() != "2" {
		t.Errorf("FIND_IN_SET('B', 'a,b') under utf8mb4_general_ci = %v, want 2", v)
	}
	bin := &testEnv{coll: collations.ID(46)} // utf8mb4_bin
	if v, _ := fnFindInSet(bin, args); v.ToString() != "0" {
		t.Errorf("FIND_IN_SET('B', 'a,b') under utf8mb4_bin = %v, want 0", v)
	}
	if v, _ := fnCharset(&testEnv{coll: collations.ID(33)}, args[:1]); v.ToString() != "utf8mb3" {
		t.Errorf("CHARSET under utf8mb3_general_ci = %v", v)
	}
}

// TestEnvState checks that RAND(seed)'s sequence belongs to one execution
// (State) and one call site.
func TestEnvState(t *testing.T) {
	one := []sqltypes.Value{sqltypes.NewInt64(1)}
	e1, e2 := &testEnv{}, &testEnv{}
	a, _ := fnRand(e1, one)
	b, _ := fnRand(e1, one)
	c, _ := fnRand(e2, one)
	if a.ToString() != "0.40540353712197724" || b.ToString() == a.ToString() || c.ToString() != a.ToString() {
		t.Errorf("RAND(1) = %v, %v in one execution, %v in another", a, b, c)
	}
}
