package sql

import (
	"context"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"sync"
	"testing"

	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
)

func bvInts(vals ...int64) map[string]*querypb.BindVariable {
	bv := make(map[string]*querypb.BindVariable, len(vals))
	for i, v := range vals {
		bv["v"+strconv.Itoa(i+1)] = sqltypes.Int64BindVariable(v)
	}
	return bv
}

func resText(res *sqltypes.Result) string {
	var b strings.Builder
	for i, r := range res.Rows {
		if i > 0 {
			b.WriteByte(';')
		}
		for j, v := range r {
			if j > 0 {
				b.WriteByte(',')
			}
			if v.IsNull() {
				b.WriteString("NULL")
			} else {
				b.WriteString(v.ToString())
			}
		}
	}
	return b.String()
}

// TestSharedPlanCacheConcurrent runs the same statements (prepared and as
// text) on many sessions at once, in two databases whose tables hold
// different rows, with different bind values and session values, and
// checks every answer. Plans are shared through the engine's cache and
// checked out exclusively; run under -race it also checks that no plan is
// used by two goroutines at a time.
func TestSharedPlanCacheConcurrent(t *testing.T) {
	ctx := context.Background()
	eng, root := newTestEngine(t)
	const rows = 60
	for _, db := range []string{"d1", "d2"} {
		checkExec(t, root, "CREATE DATABASE "+db, "USE "+db,
			"CREATE TABLE t (id INT PRIMARY KEY, k INT, c VARCHAR(20), KEY kk (k))",
			"CREATE TABLE u (id INT PRIMARY KEY, v INT)")
		var vals []string
		for i := 1; i <= rows; i++ {
			vals = append(vals, fmt.Sprintf("(%d, %d, '%s-%d')", i, i%7, db, i))
		}
		checkExec(t, root, "INSERT INTO t VALUES "+strings.Join(vals, ","))
		var us []string
		for i := 0; i < 32; i++ {
			us = append(us, fmt.Sprintf("(%d, 0)", i))
		}
		checkExec(t, root, "INSERT INTO u VALUES "+strings.Join(us, ","))
	}
	stmts := []string{
		"SELECT c FROM t WHERE id = ?",
		"SELECT SUM(k) FROM t WHERE id BETWEEN ? AND ?",
		"SELECT c FROM t WHERE id BETWEEN ? AND ? ORDER BY c",
		"SELECT DISTINCT k FROM t WHERE id BETWEEN ? AND ? ORDER BY k",
		"SELECT UPPER(c), CONNECTION_ID(), @x, DATABASE() FROM t WHERE id = ?",
		"SELECT id FROM t WHERE k = (SELECT k FROM t WHERE id = ?) AND id <= ? ORDER BY id",
		"UPDATE u SET v = ? WHERE id = ?",
		"SELECT v FROM u WHERE id = ?",
	}
	const sessions, iters = 16, 150
	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	for g := 0; g < sessions; g++ {
		s := eng.NewSession("root", "localhost")
		t.Cleanup(s.Close)
		db := []string{"d1", "d2"}[g%2]
		checkExec(t, s, "USE "+db, fmt.Sprintf("SET @x = %d", g))
		for _, q := range stmts {
			if _, _, err := s.Prepare(ctx, q); err != nil {
				t.Fatalf("prepare %s: %v", q, err)
			}
		}
		wg.Add(1)
		go func(g int, s *Session, db string) {
			defer wg.Done()
			rnd := rand.New(rand.NewSource(int64(g)))
			fail := func(q string, got, want string, err error) {
				errs <- fmt.Errorf("session %d (%s): %s: got %q, %v; want %q", g, db, q, got, err, want)
			}
			row := func(i int64) string { return fmt.Sprintf("%s-%d", db, i) }
			for it := 0; it < iters; it++ {
				a := rnd.Int63n(rows) + 1
				b := a + rnd.Int63n(10)
				check := func(q string, bv map[string]*querypb.BindVariable, want string) bool {
					var res *sqltypes.Result
					var err error
					if bv == nil {
						res, err = s.Query(ctx, q)
					} else {
						res, err = s.ExecutePrepared(ctx, q, bv)
					}
					if err != nil || resText(res) != want {
						got := ""
						if res != nil {
							got = resText(res)
						}
						fail(q, got, want, err)
						return false
					}
					return true
				}
				if !check(stmts[0], bvInts(a), row(a)) {
					return
				}
				var sum int64
				var cs []string
				ks := map[int64]bool{}
				for i := a; i <= b && i <= rows; i++ {
					sum += i % 7
					cs = append(cs, row(i))
					ks[i%7] = true
				}
				sort := func(x []string) []string {
					for i := 1; i < len(x); i++ {
						for j := i; j > 0 && x[j] < x[j-1]; j-- {
							x[j], x[j-1] = x[j-1], x[j]
						}
					}
					return x
				}
				if !check(stmts[1], bvInts(a, b), strconv.FormatInt(sum, 10)) {
					return
				}
				if !check(stmts[2], bvInts(a, b), strings.Join(sort(cs), ";")) {
					return
				}
				var kl []string
				for k := int64(0); k < 7; k++ {
					if ks[k] {
						kl = append(kl, strconv.FormatInt(k, 10))
					}
				}
				if !check(stmts[3], bvInts(a, b), strings.Join(kl, ";")) {
					return
				}
				want4 := fmt.Sprintf("%s,%d,%d,%s", strings.ToUpper(row(a)), s.ConnID, g, db)
				if !check(stmts[4], bvInts(a), want4) {
					return
				}
				var ids []string
				for i := int64(1); i <= b && i <= rows; i++ {
					if i%7 == a%7 {
						ids = append(ids, strconv.FormatInt(i, 10))
					}
				}
				if !check(stmts[5], bvInts(a, b), strings.Join(ids, ";")) {
					return
				}
				// Each session writes its own row of u.
				v := int64(it*100 + g)
				if _, err := s.ExecutePrepared(ctx, stmts[6], bvInts(v, int64(g))); err != nil {
					fail(stmts[6], "", "", err)
					return
				}
				if !check(stmts[7], bvInts(int64(g)), strconv.FormatInt(v, 10)) {
					return
				}
				// Text protocol: a few texts shared by all sessions.
				lit := a%5 + 1
				if !check(fmt.Sprintf("SELECT c, k FROM t WHERE id = %d", lit), nil, fmt.Sprintf("%s,%d", row(lit), lit%7)) {
					return
				}
				// Text statements with new constants each time: one
				// literal-normalised plan per text shape for all sessions.
				v++
				if _, err := s.Query(ctx, fmt.Sprintf("UPDATE u SET v = %d WHERE id = %d", v, g)); err != nil {
					fail("text UPDATE", "", "", err)
					return
				}
				if !check(fmt.Sprintf("SELECT v FROM u WHERE id = %d", g), nil, strconv.FormatInt(v, 10)) {
					return
				}
				if !check(fmt.Sprintf("SELECT id FROM t WHERE c = '%s' AND id BETWEEN %d AND %d", row(a), a, b), nil, strconv.FormatInt(a, 10)) {
					return
				}
			}
		}(g, s, db)
	}
	wg.Wait()
	close(errs)
	n := 0
	for err := range errs {
		t.Error(err)
		if n++; n > 10 {
			break
		}
	}
	keys, plans := eng.plans.size()
	if keys == 0 || plans == 0 {
		t.Errorf("plan cache holds %d keys, %d plans", keys, plans)
	}
	// Far fewer plans than sessions × statements: copies exist only for
	// statements that ran at the same time.
	if plans >= sessions*len(stmts) {
		t.Errorf("plan cache holds %d plans for %d sessions × %d statements", plans, sessions, len(stmts))
	}
	t.Logf("plan cache: %d keys, %d idle plans, %d hits, %d misses", keys, plans, eng.plans.hits.Load(), eng.plans.misses.Load())
}

// TestSharedPlanPrivileges checks that a plan cached by one user does not
// let another user run the statement without the privilege: the check runs
// at every execution.
func TestSharedPlanPrivileges(t *testing.T) {
	ctx := context.Background()
	eng, root := newTestEngine(t)
	checkExec(t, root, "CREATE DATABASE d", "USE d",
		"CREATE TABLE pub (id INT PRIMARY KEY, v INT)", "CREATE TABLE secret (id INT PRIMARY KEY, v INT)",
		"INSERT INTO pub VALUES (1, 10)", "INSERT INTO secret VALUES (1, 42)",
		"CREATE USER 'ro'@'localhost'", "GRANT SELECT ON d.pub TO 'ro'@'localhost'")
	const q = "SELECT v FROM secret WHERE id = ?"
	const qt = "SELECT v FROM secret WHERE id = 1"
	if _, _, err := root.Prepare(ctx, q); err != nil {
		t.Fatal(err)
	}
	if _, err := root.ExecutePrepared(ctx, q, bvInts(1)); err != nil {
		t.Fatal(err)
	}
	if _, err := root.Query(ctx, qt); err != nil {
		t.Fatal(err)
	}
	if root.peekPlan(q) == nil || root.peekPlan(qt) == nil {
		t.Fatal("root's plans are not cached")
	}
	ro := eng.NewSession("ro", "localhost")
	t.Cleanup(ro.Close)
	checkExec(t, ro, "USE d")
	if _, _, err := ro.Prepare(ctx, q); err == nil {
		t.Error("ro prepared a statement on a table it may not read")
	}
	if res, err := ro.ExecutePrepared(ctx, q, bvInts(1)); err == nil {
		t.Errorf("ro read secret through the shared plan: %v", res.Rows)
	}
	if res, err := ro.Query(ctx, qt); err == nil {
		t.Errorf("ro read secret through the shared plan: %v", res.Rows)
	}
	if res, err := ro.Query(ctx, "SELECT v FROM pub WHERE id = 1"); err != nil || resText(res) != "10" {
		t.Errorf("ro SELECT pub: %v", err)
	}
}

// TestSharedPlanInformationSchemaNotShared checks that a plan reading
// information_schema (rows are the planning session's view) is not cached.
func TestSharedPlanInformationSchemaNotShared(t *testing.T) {
	ctx := context.Background()
	_, s := newTestEngine(t)
	const q = "SELECT COUNT(*) FROM information_schema.schemata"
	if _, err := s.Query(ctx, q); err != nil {
		t.Fatal(err)
	}
	if s.peekPlan(q) != nil {
		t.Error("an information_schema plan was cached")
	}
}

// TestPlanCacheBounds checks that the cache keeps at most maxPlansPerKey
// idle copies of a key and evicts least recently used keys past the
// per-shard bounds.
func TestPlanCacheBounds(t *testing.T) {
	var c planCache
	k := planKey{sql: "q"}
	for i := 0; i < maxPlansPerKey+10; i++ {
		c.put(k, &cachedPlan{key: k, version: 1})
	}
	if _, n := c.size(); n != maxPlansPerKey {
		t.Errorf("%d idle plans for one key, want %d", n, maxPlansPerKey)
	}
	if c.get(k, 2, 0) != nil {
		t.Error("a plan of an older catalog version was handed out")
	}
	if keys, n := c.size(); keys != 0 || n != 0 {
		t.Errorf("stale key kept: %d keys, %d plans", keys, n)
	}
	for i := 0; i < planCacheShards*maxPlanKeysPerShard*2; i++ {
		kk := planKey{sql: strconv.Itoa(i)}
		c.put(kk, &cachedPlan{key: kk, version: 1})
	}
	keys, n := c.size()
	if keys > planCacheShards*maxPlanKeysPerShard || n > planCacheShards*maxPlansPerShard {
		t.Errorf("cache holds %d keys, %d plans", keys, n)
	}
	// The most recent key is still there.
	last := planKey{sql: strconv.Itoa(planCacheShards*maxPlanKeysPerShard*2 - 1)}
	if c.get(last, 1, 0) == nil {
		t.Error("the most recently used key was evicted")
	}
}
