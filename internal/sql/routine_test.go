package sql

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// TestRoutineSecurity: a SQL SECURITY DEFINER routine's statements are
// checked as its definer, an INVOKER routine's as the caller; CALL needs
// EXECUTE.
func TestRoutineSecurity(t *testing.T) {
	eng, root := newTestEngine(t)
	checkExec(t, root,
		"CREATE DATABASE d", "USE d",
		"CREATE TABLE secret (x INT)", "INSERT INTO secret VALUES (7)",
		"CREATE PROCEDURE as_definer(OUT r INT) SELECT x INTO r FROM secret",
		"CREATE PROCEDURE as_invoker(OUT r INT) SQL SECURITY INVOKER SELECT x INTO r FROM secret",
		"CREATE FUNCTION f_definer() RETURNS INT READS SQL DATA RETURN (SELECT x FROM secret)",
		"CREATE USER 'u'@'localhost'",
	)
	u := eng.NewSession("u", "localhost")
	defer u.Close()
	ctx := context.Background()
	if _, err := u.Query(ctx, "CALL d.as_definer(@r)"); sqlerr.From(err).Num != 1370 {
		t.Fatalf("CALL without EXECUTE: %v", err)
	}
	if _, err := root.Query(ctx, "GRANT EXECUTE ON PROCEDURE d.as_definer TO 'u'@'localhost'"); err == nil || sqlerr.From(err).Num != sqlerror.ERNotSupportedYet {
		t.Fatalf("GRANT on one routine: %v", err)
	}
	checkExec(t, root, "GRANT EXECUTE ON d.* TO 'u'@'localhost'")
	checkExec(t, u, "CALL d.as_definer(@r)")
	if got := trgQuery(t, u, "SELECT @r, d.f_definer()"); len(got) != 1 || got[0] != "7|7" {
		t.Fatalf("definer routines: %q", got)
	}
	if _, err := u.Query(ctx, "CALL d.as_invoker(@r)"); sqlerr.From(err).Num != sqlerror.ERTableAccessDenied {
		t.Fatalf("invoker routine without SELECT: %v", err)
	}
	// The caller's privileges are back after the CALL.
	if _, err := u.Query(ctx, "SELECT x FROM d.secret"); err == nil {
		t.Fatal("caller reads the table after a definer routine")
	}
	// CREATE ROUTINE and ALTER ROUTINE on the database.
	if _, err := u.Query(ctx, "CREATE PROCEDURE d.mine() SELECT 1"); err == nil || sqlerr.From(err).Num != sqlerror.ERDBAccessDenied {
		t.Fatalf("CREATE PROCEDURE without CREATE ROUTINE: %v", err)
	}
	checkExec(t, root, "GRANT CREATE ROUTINE ON d.* TO 'u'@'localhost'")
	checkExec(t, u, "CREATE PROCEDURE d.mine() SELECT 1")
	if _, err := u.Query(ctx, "DROP PROCEDURE d.mine"); err == nil || sqlerr.From(err).Num != sqlerror.ERDBAccessDenied {
		t.Fatalf("DROP PROCEDURE without ALTER ROUTINE: %v", err)
	}
	if _, err := u.Query(ctx, "CREATE DEFINER = 'root'@'localhost' PROCEDURE d.other() SELECT 1"); err == nil || sqlerr.From(err).Num != 1227 {
		t.Fatalf("DEFINER of another account: %v", err)
	}
}

// TestRoutineConcurrent: sessions run the same compiled routines at once,
// each with its own variables, cursors and results.
func TestRoutineConcurrent(t *testing.T) {
	eng, root := newTestEngine(t)
	checkExec(t, root,
		"CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY)",
		"INSERT INTO t VALUES (1), (2), (3), (4)",
		`CREATE FUNCTION scaled(x INT, k INT) RETURNS INT
		 BEGIN DECLARE acc INT DEFAULT 0; DECLARE i INT DEFAULT 0;
		   WHILE i < k DO SET acc = acc + x; SET i = i + 1; END WHILE; RETURN acc; END`,
		`CREATE PROCEDURE total(k INT, OUT r INT)
		 BEGIN DECLARE done INT DEFAULT 0; DECLARE v INT; DECLARE c CURSOR FOR SELECT id FROM t;
		   DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1; SET r = 0; OPEN c;
		   l: LOOP FETCH c INTO v; IF done THEN LEAVE l; END IF; SET r = r + scaled(v, k); END LOOP; END`,
	)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 1; g <= 8; g++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			s := eng.NewSession("root", "localhost")
			defer s.Close()
			ctx := context.Background()
			for i := 0; i < 20; i++ {
				if _, err := s.Query(ctx, fmt.Sprintf("CALL d.total(%d, @r)", k)); err != nil {
					errs <- err
					return
				}
				res, err := s.Query(ctx, "SELECT @r, d.scaled(id, "+fmt.Sprint(k)+") FROM d.t WHERE id = 2")
				if err != nil {
					errs <- err
					return
				}
				if got, want := res.Rows[0][0].ToString()+"|"+res.Rows[0][1].ToString(), fmt.Sprintf("%d|%d", 10*k, 2*k); got != want {
					errs <- fmt.Errorf("k=%d: got %s, want %s", k, got, want)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestRoutineInvalidation: a cached plan that calls a stored function is
// planned again when the function is replaced, and a dropped database
// takes its routines.
func TestRoutineInvalidation(t *testing.T) {
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d", "CREATE FUNCTION f(x INT) RETURNS INT RETURN x + 1")
	if got := trgQuery(t, s, "SELECT f(1)"); got[0] != "2" {
		t.Fatalf("f(1) = %q", got)
	}
	checkExec(t, s, "DROP FUNCTION f", "CREATE FUNCTION f(x INT) RETURNS INT RETURN x + 100")
	if got := trgQuery(t, s, "SELECT f(1)"); got[0] != "101" {
		t.Fatalf("f(1) after replace = %q", got)
	}
	checkExec(t, s, "DROP DATABASE d", "CREATE DATABASE d", "USE d")
	if _, err := s.Query(context.Background(), "SELECT f(1)"); sqlerr.From(err).Num != sqlerr.SPDoesNotExist {
		t.Fatalf("function after DROP DATABASE: %v", err)
	}
	if rs := s.eng.Cat.Routines("d"); len(rs) != 0 {
		t.Fatalf("routines left: %v", rs)
	}
}

// TestRoutineLoopSpeed: SET in a loop is an evaluation, not a planned
// statement (100000 iterations well under a second; a generous bound
// here, the measured time is in docs/sql.md).
func TestRoutineLoopSpeed(t *testing.T) {
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d",
		"CREATE PROCEDURE loop1(OUT r INT) BEGIN DECLARE i INT DEFAULT 0; WHILE i < 100000 DO SET i = i + 1; END WHILE; SET r = i; END",
		"CALL loop1(@r)")
	if got := trgQuery(t, s, "SELECT @r"); strings.Join(got, "") != "100000" {
		t.Fatalf("@r = %q", got)
	}
}

// TestRoutineShow: SHOW PROCEDURE/FUNCTION STATUS (LIKE, WHERE) and SHOW
// CREATE FUNCTION in MySQL 8.0's columns.
func TestRoutineShow(t *testing.T) {
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d",
		"CREATE PROCEDURE p1() COMMENT 'one' SELECT 1",
		"CREATE PROCEDURE p2() SQL SECURITY INVOKER SELECT 2",
		"CREATE FUNCTION f(x INT) RETURNS INT DETERMINISTIC NO SQL RETURN x")
	res, err := s.Query(context.Background(), "SHOW PROCEDURE STATUS WHERE Db = 'd'")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range res.Fields {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, ","); got != "Db,Name,Type,Definer,Modified,Created,Security_type,Comment,character_set_client,collation_connection,Database Collation" {
		t.Errorf("columns: %s", got)
	}
	var rows []string
	for _, r := range res.Rows {
		rows = append(rows, r[1].ToString()+"|"+r[2].ToString()+"|"+r[3].ToString()+"|"+r[6].ToString()+"|"+r[7].ToString())
	}
	if got := strings.Join(rows, "\n"); got != "p1|PROCEDURE|root@localhost|DEFINER|one\np2|PROCEDURE|root@localhost|INVOKER|" {
		t.Errorf("SHOW PROCEDURE STATUS:\n%s", got)
	}
	if got := trgQuery(t, s, "SHOW FUNCTION STATUS LIKE 'f'"); len(got) != 1 || !strings.HasPrefix(got[0], "d|f|FUNCTION|") {
		t.Errorf("SHOW FUNCTION STATUS: %q", got)
	}
	got := trgQuery(t, s, "SHOW CREATE FUNCTION f")
	want := "f|ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION|" +
		"CREATE DEFINER=`root`@`localhost` FUNCTION `f`(x INT) RETURNS INT\n    DETERMINISTIC\n    NO SQL\nRETURN x|utf8mb4|utf8mb4_general_ci|utf8mb4_general_ci"
	if len(got) != 1 || got[0] != want {
		t.Errorf("SHOW CREATE FUNCTION:\n%q\nwant\n%q", got, want)
	}
}

// TestRoutinePreparedCall: CALL through the binary protocol binds its
// parameters; a procedure that returns result sets answers through the
// text protocol only (here, without a client, the CALL answers its last
// result set).
func TestRoutinePreparedCall(t *testing.T) {
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d", "CREATE TABLE t (a INT)",
		"CREATE PROCEDURE ins(IN x INT, IN y INT) BEGIN INSERT INTO t VALUES (x), (y); END",
		"CREATE PROCEDURE sel(IN x INT) BEGIN SELECT x + 1 AS r; END")
	ctx := context.Background()
	n, _, err := s.Prepare(ctx, "CALL ins(?, ?)")
	if err != nil || n != 2 {
		t.Fatalf("prepare: %d %v", n, err)
	}
	bv := map[string]*querypb.BindVariable{"v1": sqltypes.Int64BindVariable(4), "v2": sqltypes.Int64BindVariable(5)}
	if _, err := s.ExecutePrepared(ctx, "CALL ins(?, ?)", bv); err != nil {
		t.Fatal(err)
	}
	if got := trgQuery(t, s, "SELECT SUM(a) FROM t"); got[0] != "9" {
		t.Fatalf("SUM = %q", got)
	}
	if got := trgQuery(t, s, "CALL sel(1)"); len(got) != 1 || got[0] != "2" {
		t.Fatalf("CALL sel = %q", got)
	}
	// A handled NOT FOUND leaves no warning behind.
	checkExec(t, s, `CREATE PROCEDURE nf(OUT r INT) BEGIN DECLARE CONTINUE HANDLER FOR NOT FOUND SET r = -1; SELECT a INTO r FROM t WHERE a > 100; END`,
		"CALL nf(@r)")
	if w := s.Warnings(); len(w) != 0 {
		t.Errorf("warnings after a handled NOT FOUND: %v", w)
	}
	if got := trgQuery(t, s, "SELECT @r"); got[0] != "-1" {
		t.Errorf("@r = %q", got)
	}
}

// TestValueTrue: conditions of IF, WHILE and UNTIL read strings by their
// numeric prefix, as MySQL.
func TestValueTrue(t *testing.T) {
	for _, tc := range []struct {
		v    sqltypes.Value
		want bool
	}{
		{sqltypes.NULL, false}, {sqltypes.NewInt64(0), false}, {sqltypes.NewInt64(-3), true},
		{sqltypes.NewUint64(1 << 63), true}, {sqltypes.NewFloat64(0.25), true},
		{sqltypes.NewVarChar("1abc"), true}, {sqltypes.NewVarChar("abc"), false},
		{sqltypes.NewVarChar(" 0.0x"), false}, {sqltypes.NewVarChar("-2e1"), true},
		{sqltypes.NewVarChar(""), false}, {sqltypes.NewVarChar(".5"), true},
	} {
		if got := valueTrue(tc.v); got != tc.want {
			t.Errorf("valueTrue(%v) = %v", tc.v, got)
		}
	}
}
