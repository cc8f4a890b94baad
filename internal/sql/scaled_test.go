package sql

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"vitess.io/vitess/go/mysql/decimal"
)

func TestScaledDecimal(t *testing.T) {
	for _, c := range []struct {
		in    string
		m     int64
		scale int32
		ok    bool
	}{
		{"0", 0, 0, true}, {"12.50", 1250, 2, true}, {"-0.05", -5, 2, true}, {"+7", 7, 0, true},
		{"123456789012345678", 123456789012345678, 0, true}, {"1234567890123456789", 0, 0, false},
		{"1e5", 0, 0, false}, {"", 0, 0, false}, {"-", 0, 0, false}, {"1.2.3", 0, 0, false}, {".5", 5, 1, true},
	} {
		m, scale, ok := scaledDecimal([]byte(c.in))
		if m != c.m || scale != c.scale || ok != c.ok {
			t.Errorf("scaledDecimal(%q) = %d, %d, %v; want %d, %d, %v", c.in, m, scale, ok, c.m, c.scale, c.ok)
		}
	}
}

// TestDecimalSums: SUM and AVG over DECIMAL columns (the int64 fast path,
// its overflow into arbitrary precision, integers and decimals mixed) equal
// the sums computed with arbitrary-precision decimals.
func TestDecimalSums(t *testing.T) {
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, g INT, a DECIMAL(15,2), b DECIMAL(38,6), i BIGINT)")
	rnd := rand.New(rand.NewSource(7))
	type sums struct{ a, b, ai decimal.Decimal }
	want := map[int]*sums{}
	for id := 1; id <= 600; id++ {
		g := id % 3
		a := decimal.New(rnd.Int63n(2_000_000_000_000)-1_000_000_000_000, -2)
		// Group 2's b values are large enough that their sum leaves int64.
		bm := rnd.Int63n(1_000_000_000)
		if g == 2 {
			bm = 100_000_000_000_000_000 + rnd.Int63n(800_000_000_000_000_000)
		}
		b := decimal.New(bm, -6)
		i := rnd.Int63n(1000) - 500
		checkExec(t, s, fmt.Sprintf("INSERT INTO t VALUES (%d, %d, %s, %s, %d)", id, g, a.String(), b.String(), i))
		w := want[g]
		if w == nil {
			w = &sums{a: decimal.NewFromInt(0), b: decimal.NewFromInt(0), ai: decimal.NewFromInt(0)}
			want[g] = w
		}
		w.a, w.b = w.a.Add(a), w.b.Add(b)
		w.ai = w.ai.Add(a).Add(decimal.NewFromInt(i))
	}
	res, err := s.Query(context.Background(), "SELECT g, SUM(a), SUM(b), SUM(a) + SUM(i), COUNT(*) FROM t GROUP BY g ORDER BY g")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Rows {
		g, _ := r[0].ToInt64()
		w := want[int(g)]
		if got, exp := r[1].ToString(), w.a.StringFixed(2); got != exp {
			t.Errorf("group %d SUM(a) = %s, want %s", g, got, exp)
		}
		if got, exp := r[2].ToString(), w.b.StringFixed(6); got != exp {
			t.Errorf("group %d SUM(b) = %s, want %s", g, got, exp)
		}
		if got, exp := r[3].ToString(), w.ai.StringFixed(2); got != exp {
			t.Errorf("group %d SUM(a)+SUM(i) = %s, want %s", g, got, exp)
		}
	}
	// Integers and decimals in one sum, and AVG.
	res, err = s.Query(context.Background(), "SELECT SUM(x), AVG(x) FROM (SELECT i AS x FROM t WHERE id <= 3 UNION ALL SELECT a FROM t WHERE id <= 3) u")
	if err != nil {
		t.Fatal(err)
	}
	total := decimal.NewFromInt(0)
	for id := 1; id <= 3; id++ {
		r, err := s.Query(context.Background(), fmt.Sprintf("SELECT i, a FROM t WHERE id = %d", id))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range r.Rows[0] {
			d, err := decimal.NewFromString(v.ToString())
			if err != nil {
				t.Fatal(err)
			}
			total = total.Add(d)
		}
	}
	if got, exp := res.Rows[0][0].ToString(), total.StringFixed(2); got != exp {
		t.Errorf("mixed SUM = %s, want %s", got, exp)
	}
	if got, exp := res.Rows[0][1].ToString(), total.Div(decimal.NewFromInt(6), 4).StringFixed(6); got != exp {
		t.Errorf("mixed AVG = %s, want %s", got, exp)
	}
}
