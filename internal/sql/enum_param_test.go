package sql

import (
	"context"
	"fmt"
	"testing"

	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
)

// TestEnumParams: a statement parameter compared with an ENUM column means
// what the same constant written in the text means — a number the member's
// position, a string its text — for indexed and unindexed columns, every
// comparison operator and IN. (Before, a parameter was always compared
// with the member's text, and an index range with a string used the
// members' position order.)
func TestEnumParams(t *testing.T) {
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, e ENUM('b','a','c'), f ENUM('x','y','z'), KEY ke (e))",
		"INSERT INTO t VALUES (1,'b','x'), (2,'a','y'), (3,'c','z'), (4,NULL,'y'), (5,'a',NULL)")
	ctx := context.Background()
	type arg struct {
		text string
		bv   *querypb.BindVariable
	}
	args := []arg{
		{"0", sqltypes.Int64BindVariable(0)}, {"1", sqltypes.Int64BindVariable(1)},
		{"2", sqltypes.Int64BindVariable(2)}, {"3", sqltypes.Int64BindVariable(3)},
		{"7", sqltypes.Int64BindVariable(7)}, {"2.0", sqltypes.Float64BindVariable(2)},
		{"'a'", sqltypes.StringBindVariable("a")}, {"'y'", sqltypes.StringBindVariable("y")},
		{"'B'", sqltypes.StringBindVariable("B")}, {"'2'", sqltypes.StringBindVariable("2")},
		{"NULL", sqltypes.NullBindVariable},
	}
	for _, col := range []string{"e", "f"} {
		for _, shape := range []string{"%s = %s", "%s <=> %s", "%s <> %s", "%s < %s", "%s >= %s", "%[2]s > %[1]s", "%s IN (%s, 'c', 'z')", "%s NOT IN (%s)", "%s BETWEEN %s AND 3", "%s NOT BETWEEN 'a' AND %s"} {
			for _, a := range args {
				text := "SELECT id FROM t WHERE " + fmt.Sprintf(shape, col, a.text) + " ORDER BY id"
				want, err := s.Query(ctx, text)
				if err != nil {
					t.Fatalf("%s: %v", text, err)
				}
				ps := "SELECT id FROM t WHERE " + fmt.Sprintf(shape, col, "?") + " ORDER BY id"
				got, err := s.ExecutePrepared(ctx, ps, map[string]*querypb.BindVariable{"v1": a.bv})
				if err != nil {
					t.Fatalf("%s with %s: %v", ps, a.text, err)
				}
				if resText(got) != resText(want) {
					t.Errorf("%s with %s = %s; the text %s = %s", ps, a.text, resText(got), text, resText(want))
				}
			}
		}
	}
}
