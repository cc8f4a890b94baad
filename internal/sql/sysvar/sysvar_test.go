package sysvar

import (
	"errors"
	"testing"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
)

func TestNormalize(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   sqltypes.Value
		want string
		code sqlerror.ErrorCode // 0: no error
	}{
		{"autocommit", sqltypes.NewVarChar("on"), "1", 0},
		{"autocommit", sqltypes.NewInt64(0), "0", 0},
		{"autocommit", sqltypes.NewVarChar("maybe"), "", sqlerror.ERWrongValueForVar},
		{"autocommit", sqltypes.NULL, "", sqlerror.ERWrongValueForVar},
		{"max_join_size", sqltypes.NewVarChar("abc"), "", sqlerror.ERWrongTypeForVar},
		{"max_join_size", sqltypes.NewInt64(42), "42", 0},
		{"sql_mode", sqltypes.NewVarChar("traditional,ansi_quotes"), "STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION,ANSI_QUOTES", 0},
		{"sql_mode", sqltypes.NewVarChar("NO_SUCH_MODE"), "", sqlerror.ERWrongValueForVar},
		{"transaction_isolation", sqltypes.NewVarChar("read committed"), "READ-COMMITTED", 0},
	} {
		d, ok := Lookup(tc.name)
		if !ok {
			t.Fatalf("%s: not defined", tc.name)
		}
		got, err := Normalize(d, tc.in)
		if tc.code != 0 {
			var se *sqlerror.SQLError
			if !errors.As(err, &se) || se.Num != tc.code {
				t.Errorf("%s = %v: error %v, want %d", tc.name, tc.in, err, tc.code)
			}
			continue
		}
		if err != nil || got.ToString() != tc.want {
			t.Errorf("%s = %v: %v, %v; want %s", tc.name, tc.in, got, err, tc.want)
		}
	}
}

func TestGlobals(t *testing.T) {
	g := NewGlobals()
	v, ok := g.Get("sql_mode")
	if !ok || v.ToString() != DefaultSQLMode {
		t.Fatalf("sql_mode default %v", v)
	}
	before := g.Version()
	g.Set("sql_mode", sqltypes.NewVarChar("ANSI_QUOTES"))
	if v, _ := g.Get("sql_mode"); v.ToString() != "ANSI_QUOTES" || g.Version() == before {
		t.Fatalf("after Set: %v, version %d (before %d)", v, g.Version(), before)
	}
	// Another set of globals is independent.
	if v, _ := NewGlobals().Get("sql_mode"); v.ToString() != DefaultSQLMode {
		t.Fatalf("globals share state: %v", v)
	}
	if d, _ := Lookup("version"); !d.ReadOnly || d.Scope != Global {
		t.Fatalf("version: %+v", d)
	}
}
