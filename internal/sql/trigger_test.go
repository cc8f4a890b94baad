package sql

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// trgQuery runs q and returns its rows as "a|b|c" lines.
func trgQuery(t *testing.T, s *Session, q string) []string {
	t.Helper()
	res, err := s.Query(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var out []string
	for _, r := range res.Rows {
		var f []string
		for _, v := range r {
			f = append(f, v.ToString())
		}
		out = append(out, strings.Join(f, "|"))
	}
	return out
}

func TestShowTriggers(t *testing.T) {
	_, s := newTestEngine(t)
	checkExec(t, s,
		"CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT)",
		"CREATE TABLE u (id INT PRIMARY KEY)",
		"CREATE TRIGGER t_au AFTER UPDATE ON t FOR EACH ROW SET @x = NEW.a",
		"CREATE TRIGGER t_bi BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1",
		"CREATE TRIGGER t_bi0 BEFORE INSERT ON t FOR EACH ROW PRECEDES t_bi SET NEW.a = 0",
		"CREATE TRIGGER u_ad AFTER DELETE ON u FOR EACH ROW SET @y = OLD.id",
	)
	res, err := s.Query(context.Background(), "SHOW TRIGGERS")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range res.Fields {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, ","); got != "Trigger,Event,Table,Statement,Timing,Created,sql_mode,Definer,character_set_client,collation_connection,Database Collation" {
		t.Errorf("columns: %s", got)
	}
	var rows []string
	for _, r := range res.Rows {
		rows = append(rows, r[0].ToString()+"|"+r[1].ToString()+"|"+r[2].ToString()+"|"+r[4].ToString()+"|"+r[7].ToString())
	}
	want := []string{"t_bi0|INSERT|t|BEFORE|root@localhost", "t_bi|INSERT|t|BEFORE|root@localhost", "t_au|UPDATE|t|AFTER|root@localhost", "u_ad|DELETE|u|AFTER|root@localhost"}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("SHOW TRIGGERS:\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	if got := trgQuery(t, s, "SHOW TRIGGERS FROM d LIKE 'u'"); len(got) != 1 || !strings.HasPrefix(got[0], "u_ad|") {
		t.Errorf("SHOW TRIGGERS LIKE: %q", got)
	}
	if got := trgQuery(t, s, "SHOW TRIGGERS WHERE `Trigger` = 't_au'"); len(got) != 1 || !strings.HasPrefix(got[0], "t_au|") {
		t.Errorf("SHOW TRIGGERS WHERE: %q", got)
	}
	got := trgQuery(t, s, "SHOW CREATE TRIGGER d.t_bi0")
	if len(got) != 1 || !strings.Contains(got[0], "|CREATE DEFINER=`root`@`localhost` TRIGGER `t_bi0` BEFORE INSERT ON `t` FOR EACH ROW SET NEW.a = 0|") {
		t.Errorf("SHOW CREATE TRIGGER: %q", got)
	}
	if got := trgQuery(t, s, "SELECT TRIGGER_NAME, ACTION_ORDER, DEFINER FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_TABLE = 't' ORDER BY TRIGGER_NAME"); strings.Join(got, ",") != "t_au|1|root@localhost,t_bi|2|root@localhost,t_bi0|1|root@localhost" {
		t.Errorf("information_schema.TRIGGERS: %q", got)
	}
	// The PRECEDES order holds when the triggers fire.
	checkExec(t, s, "INSERT INTO t VALUES (1, 9)")
	if got := trgQuery(t, s, "SELECT a FROM t"); len(got) != 1 || got[0] != "1" {
		t.Errorf("fired in the wrong order: %q", got)
	}
}

func TestTriggerPrivilege(t *testing.T) {
	eng, root := newTestEngine(t)
	checkExec(t, root,
		"CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT)",
		"CREATE USER u@localhost",
		"GRANT SELECT, INSERT ON d.* TO u@localhost",
	)
	u := eng.NewSession("u", "localhost")
	defer u.Close()
	checkExec(t, u, "USE d")
	_, err := u.Query(context.Background(), "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1")
	if errNum(err) != 1142 {
		t.Fatalf("CREATE TRIGGER without TRIGGER: %v", err)
	}
	checkExec(t, root, "GRANT TRIGGER ON d.t TO u@localhost")
	checkExec(t, u, "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1")
	if got := trgQuery(t, u, "SHOW TRIGGERS"); len(got) != 1 {
		t.Errorf("SHOW TRIGGERS with TRIGGER: %q", got)
	}
	checkExec(t, root, "REVOKE TRIGGER ON d.t FROM u@localhost")
	if got := trgQuery(t, u, "SHOW TRIGGERS"); len(got) != 0 {
		t.Errorf("SHOW TRIGGERS without TRIGGER: %q", got)
	}
	if got := trgQuery(t, u, "SELECT TRIGGER_NAME FROM information_schema.TRIGGERS"); len(got) != 0 {
		t.Errorf("information_schema.TRIGGERS without TRIGGER: %q", got)
	}
	if _, err := u.Query(context.Background(), "DROP TRIGGER tr"); errNum(err) != 1142 {
		t.Errorf("DROP TRIGGER without TRIGGER: %v", err)
	}
	// The invoker needs no privilege beyond the statement's; the trigger
	// needs its definer to hold TRIGGER still.
	if _, err := u.Query(context.Background(), "INSERT INTO t VALUES (1, 5)"); errNum(err) != 1142 {
		t.Errorf("firing without the definer's TRIGGER: %v", err)
	}
	checkExec(t, root, "GRANT TRIGGER ON d.t TO u@localhost",
		"CREATE USER v@localhost", "GRANT INSERT, SELECT ON d.t TO v@localhost")
	v := eng.NewSession("v", "localhost")
	defer v.Close()
	checkExec(t, v, "USE d", "INSERT INTO t VALUES (1, 5)")
	if got := trgQuery(t, v, "SELECT a FROM t"); len(got) != 1 || got[0] != "1" {
		t.Errorf("trigger did not fire: %q", got)
	}
	// The body's statements run with the definer's privileges: u may not
	// write e.secret, so a trigger u defines may not either.
	checkExec(t, root, "CREATE DATABASE e", "CREATE TABLE e.secret (a INT)")
	checkExec(t, u, "CREATE TRIGGER tr2 AFTER INSERT ON t FOR EACH ROW INSERT INTO e.secret VALUES (NEW.a)")
	if _, err := v.Query(context.Background(), "INSERT INTO t VALUES (2, 5)"); errNum(err) != 1142 {
		t.Errorf("a body writing a table its definer may not: %v", err)
	}
	if got := trgQuery(t, root, "SELECT COUNT(*) FROM t"); got[0] != "1" {
		t.Errorf("the failed insert left rows: %q", got)
	}
	// Nor may u name another account as the definer.
	if _, err := u.Query(context.Background(), "CREATE DEFINER = root@localhost TRIGGER tr3 AFTER DELETE ON t FOR EACH ROW DELETE FROM e.secret"); errNum(err) != 1227 {
		t.Errorf("DEFINER = root by u: %v", err)
	}
	checkExec(t, u, "CREATE DEFINER = u@localhost TRIGGER tr3 AFTER DELETE ON t FOR EACH ROW SET @x = 1")
	checkExec(t, root, "DROP TRIGGER tr2", "GRANT DELETE ON d.t TO v@localhost", "DROP USER u@localhost")
	if _, err := v.Query(context.Background(), "DELETE FROM t"); errNum(err) != 1449 {
		t.Errorf("a dropped definer: %v", err)
	}
}

// TestTriggersConcurrent fires the same triggers from several sessions at
// once (the compiled triggers are shared; run with -race).
func TestTriggersConcurrent(t *testing.T) {
	eng, s := newTestEngine(t)
	checkExec(t, s,
		"CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(10))",
		"CREATE TABLE log (id INT PRIMARY KEY, b VARCHAR(20))",
		"CREATE TRIGGER t_bi BEFORE INSERT ON t FOR EACH ROW SET NEW.b = CONCAT('n', NEW.id)",
		"CREATE TRIGGER t_ai AFTER INSERT ON t FOR EACH ROW INSERT INTO log VALUES (NEW.id, CONCAT(NEW.b, '/', NEW.a))",
	)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			ss := eng.NewSession("root", "localhost")
			defer ss.Close()
			if _, err := ss.Query(context.Background(), "USE d"); err != nil {
				errs <- err
				return
			}
			for i := 0; i < 25; i++ {
				id := w*100 + i
				if _, err := ss.Query(context.Background(), "INSERT INTO t (id, a) VALUES ("+strconv.Itoa(id)+", "+strconv.Itoa(i)+")"); err != nil {
					errs <- err
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := trgQuery(t, s, "SELECT COUNT(*), SUM(b = CONCAT('n', id, '/', id % 100)) FROM log"); got[0] != "100|100" {
		t.Errorf("log: %q", got)
	}
}
