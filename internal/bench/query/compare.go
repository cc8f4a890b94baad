package query

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Compare reports whether got has the same rows as want, and if not, the
// first difference. orderKeys are the result columns (0-based) the query
// orders by: rows must come in the same order of those columns, and rows
// whose order keys are equal (ties) may come in any order; with no order
// keys the whole result is compared as a multiset. Values are compared as
// text, except numbers: two numbers are equal when they differ by at most
// 1e-9 relative (floating-point noise) or, when they are written with
// different numbers of decimals, by half a unit in the last place of the
// shorter (it may be the other rounded): 0.0385 equals 0.03847 and 12
// equals 12.00, but 12.00 does not equal 12.01.
func Compare(want, got *Result, orderKeys []int) (bool, string) {
	if len(want.Columns) != len(got.Columns) {
		return false, fmt.Sprintf("%d columns, want %d", len(got.Columns), len(want.Columns))
	}
	if len(want.Rows) != len(got.Rows) {
		return false, fmt.Sprintf("%d rows, want %d", len(got.Rows), len(want.Rows))
	}
	wantRuns, gotRuns := runs(want.Rows, orderKeys), runs(got.Rows, orderKeys)
	for i := range min(len(wantRuns), len(gotRuns)) {
		w, g := wantRuns[i], gotRuns[i]
		if !keysEqual(w[0].row, g[0].row, orderKeys) {
			return false, fmt.Sprintf("row %d: ORDER BY columns %s, want %s", g[0].n+1, show(g[0].row, orderKeys), show(w[0].row, orderKeys))
		}
		if len(w) != len(g) {
			return false, fmt.Sprintf("rows %d–%d: %d rows with ORDER BY columns %s, want %d", g[0].n+1, g[0].n+len(g), len(g), show(g[0].row, orderKeys), len(w))
		}
		if ok, diff := sameMultiset(w, g); !ok {
			return false, diff
		}
	}
	return true, ""
}

// numbered is a row with its position in the result.
type numbered struct {
	n   int
	row []string
}

// runs splits rows into runs of consecutive rows with equal order keys
// (one run when there are none).
func runs(rows [][]string, keys []int) [][]numbered {
	var out [][]numbered
	for i, r := range rows {
		nr := numbered{i, r}
		last := len(out) - 1
		if last >= 0 && keysEqual(out[last][0].row, r, keys) {
			out[last] = append(out[last], nr)
		} else {
			out = append(out, []numbered{nr})
		}
	}
	return out
}

// keysEqual compares the columns cols of a and b.
func keysEqual(a, b []string, cols []int) bool {
	for _, c := range cols {
		if !ValueEqual(a[c], b[c]) {
			return false
		}
	}
	return true
}

// rowEqual compares all columns of a and b.
func rowEqual(a, b []string) bool {
	for i := range a {
		if !ValueEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

// sameMultiset matches every row of got with an equal, unmatched row of
// want: first rows with the same text, then the rest with ValueEqual.
func sameMultiset(want, got []numbered) (bool, string) {
	exact := map[string]int{}
	for _, w := range want {
		exact[strings.Join(w.row, "\x00")]++
	}
	var restGot []numbered
	for _, g := range got {
		k := strings.Join(g.row, "\x00")
		if exact[k] > 0 {
			exact[k]--
			continue
		}
		restGot = append(restGot, g)
	}
	var restWant []numbered
	for _, w := range want {
		k := strings.Join(w.row, "\x00")
		if exact[k] > 0 {
			exact[k]--
			restWant = append(restWant, w)
		}
	}
	used := make([]bool, len(restWant))
	for _, g := range restGot {
		found := false
		for i, w := range restWant {
			if !used[i] && rowEqual(w.row, g.row) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			return false, fmt.Sprintf("row %d [%s] is not in the reference result (first unmatched reference row: %s)",
				g.n+1, strings.Join(g.row, " | "), firstUnused(restWant, used))
		}
	}
	return true, ""
}

func firstUnused(rows []numbered, used []bool) string {
	for i, r := range rows {
		if !used[i] {
			return fmt.Sprintf("%d [%s]", r.n+1, strings.Join(r.row, " | "))
		}
	}
	return "none"
}

func show(row []string, cols []int) string {
	var parts []string
	for _, c := range cols {
		parts = append(parts, row[c])
	}
	return "[" + strings.Join(parts, " | ") + "]"
}

// ValueEqual compares two values as described at Compare.
func ValueEqual(a, b string) bool {
	if a == b {
		return true
	}
	if a == Null || b == Null {
		return false
	}
	x, errA := strconv.ParseFloat(a, 64)
	y, errB := strconv.ParseFloat(b, 64)
	if errA != nil || errB != nil {
		return false
	}
	tol := 1e-9 * max(math.Abs(x), math.Abs(y))
	if da, db := decimals(a), decimals(b); da != db {
		// The one with fewer decimals may be the other rounded.
		tol += 0.5 * math.Pow(10, -float64(min(da, db)))
	}
	return math.Abs(x-y) <= tol
}

// decimals is the number of digits after the decimal point of a number's
// text (exponent forms count as exact to 1e-9 relative only: 15 digits).
func decimals(s string) int {
	if strings.ContainsAny(s, "eE") {
		return 15
	}
	if _, frac, ok := strings.Cut(s, "."); ok {
		return len(frac)
	}
	return 0
}
