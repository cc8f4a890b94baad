package tpch

import (
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// generate runs g and returns every table's rows.
func generate(t *testing.T, sf float64, seed uint64) map[string][][]string {
	t.Helper()
	g, err := NewGenerator(sf, seed)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][][]string{}
	g.Generate(func(table string, row []string) bool {
		out[table] = append(out[table], row)
		return true
	})
	return out
}

func digest(rows map[string][][]string) string {
	h := sha256.New()
	for _, t := range Tables {
		for _, r := range rows[t] {
			fmt.Fprintln(h, t, strings.Join(r, "|"))
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func TestRowCounts(t *testing.T) {
	rows := generate(t, 0.01, 1)
	want := map[string]int{"region": 5, "nation": 25, "supplier": 100, "customer": 1500, "part": 2000, "partsupp": 8000, "orders": 15000}
	for table, n := range want {
		if got := len(rows[table]); got != n {
			t.Errorf("%s: %d rows, want %d", table, got, n)
		}
	}
	// 1 to 7 lines per order: about 4 per order.
	if n := len(rows["lineitem"]); n < 15000*37/10 || n > 15000*43/10 {
		t.Errorf("lineitem: %d rows, want about 60000", n)
	}
	g, _ := NewGenerator(0.01, 1)
	for _, table := range Tables {
		if table != "lineitem" && g.Rows(table) != len(rows[table]) {
			t.Errorf("Rows(%s) = %d, generated %d", table, g.Rows(table), len(rows[table]))
		}
	}
	if g, _ := NewGenerator(1, 1); g.Rows("lineitem") != 6000000 || g.Rows("orders") != 1500000 || g.Rows("partsupp") != 800000 {
		t.Errorf("SF 1 cardinalities: lineitem %d orders %d partsupp %d", g.Rows("lineitem"), g.Rows("orders"), g.Rows("partsupp"))
	}
}

func TestDeterministic(t *testing.T) {
	a, b := digest(generate(t, 0.01, 7)), digest(generate(t, 0.01, 7))
	if a != b {
		t.Fatalf("same seed, different data: %s vs %s", a, b)
	}
	if c := digest(generate(t, 0.01, 8)); c == a {
		t.Fatalf("different seeds, same data")
	}
}

func TestScaleRange(t *testing.T) {
	for _, sf := range []float64{0, 0.001, -1, 2000} {
		if _, err := NewGenerator(sf, 1); err == nil {
			t.Errorf("scale factor %v accepted", sf)
		}
	}
}

// TestValues checks the specification's key formulas and derived columns.
func TestValues(t *testing.T) {
	rows := generate(t, 0.01, 3)
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		return v
	}
	// Every part has four distinct suppliers.
	supp := map[string]map[string]bool{}
	for _, r := range rows["partsupp"] {
		if supp[r[0]] == nil {
			supp[r[0]] = map[string]bool{}
		}
		supp[r[0]][r[1]] = true
	}
	for p, s := range supp {
		if len(s) != 4 {
			t.Fatalf("part %s has suppliers %v", p, s)
		}
	}
	// Order keys: the first 8 of every 32; customers not divisible by 3.
	keys := map[string]bool{}
	for _, o := range rows["orders"] {
		k := int(num(o[0]))
		if (k-1)%32 >= 8 {
			t.Fatalf("order key %d is not among the first 8 of its 32", k)
		}
		if int(num(o[1]))%3 == 0 {
			t.Fatalf("order %d of customer %s (divisible by 3)", k, o[1])
		}
		keys[o[0]] = true
	}
	// Lines: supplier among the part's, extended price = quantity × retail
	// price, dates ordered, flags from the current date.
	status := map[string]string{}
	for _, l := range rows["lineitem"] {
		if !keys[l[0]] {
			t.Fatalf("line of unknown order %s", l[0])
		}
		if !supp[l[1]][l[2]] {
			t.Fatalf("line supplier %s is not a supplier of part %s", l[2], l[1])
		}
		part, _ := strconv.Atoi(l[1])
		if got, want := num(l[5]), num(l[4])*float64(retailPrice(part))/100; fmt.Sprintf("%.2f", got) != fmt.Sprintf("%.2f", want) {
			t.Fatalf("extended price %v, want %v", got, want)
		}
		ship, receipt := l[10], l[12]
		if !(receipt > ship) {
			t.Fatalf("receipt %s not after ship %s", receipt, ship)
		}
		if (receipt <= "'1995-06-17'") == (l[8] == "'N'") {
			t.Fatalf("return flag %s with receipt date %s", l[8], receipt)
		}
		if (ship > "'1995-06-17'") != (l[9] == "'O'") {
			t.Fatalf("line status %s with ship date %s", l[9], ship)
		}
		status[l[0]] += strings.Trim(l[9], "'")
	}
	for _, o := range rows["orders"] {
		s := status[o[0]]
		want := "'P'"
		switch {
		case !strings.Contains(s, "O"):
			want = "'F'"
		case !strings.Contains(s, "F"):
			want = "'O'"
		}
		if o[2] != want {
			t.Fatalf("order %s status %s, lines %s", o[0], o[2], s)
		}
	}
	// The text grammar produces the words the queries look for.
	found := 0
	for _, o := range rows["orders"] {
		c := o[8]
		if i := strings.Index(c, "special"); i >= 0 && strings.Contains(c[i:], "requests") {
			found++
		}
	}
	if found == 0 {
		t.Errorf("no order comment matches Q13's '%%special%%requests%%'")
	}
}

func TestEmbed(t *testing.T) {
	g, _ := NewGenerator(0.01, 1)
	r := g.stream(99)
	for range 100 {
		s := embed(r, g.text(r, 25, 100), "Customer ", "Complaints")
		i := strings.Index(s, "Customer ")
		if i < 0 || !strings.Contains(s[i:], "Complaints") || len(s) > 100 {
			t.Fatalf("%q", s)
		}
	}
}

func TestQueries(t *testing.T) {
	qs := Queries(0.01)
	if len(qs) != 22 {
		t.Fatalf("%d queries", len(qs))
	}
	for _, q := range qs {
		if q.N < 1 || strings.Contains(q.SQL, "{") || strings.Contains(q.SQL, "  ") {
			t.Errorf("Q%d: %s", q.N, q.SQL)
		}
		if (q.OrderKeys != nil) != strings.Contains(q.SQL, "ORDER BY") {
			t.Errorf("Q%d: order keys %v but ORDER BY present=%v", q.N, q.OrderKeys, strings.Contains(q.SQL, "ORDER BY"))
		}
	}
	if !strings.Contains(qs[10].SQL, "* 0.01 FROM") {
		t.Errorf("Q11 fraction at SF 0.01: %s", qs[10].SQL)
	}
}
