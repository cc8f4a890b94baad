package query

import (
	"strings"
	"testing"
)

func res(rows ...string) *Result {
	r := &Result{}
	for _, row := range rows {
		f := strings.Split(row, ",")
		if r.Columns == nil {
			for i := range f {
				r.Columns = append(r.Columns, string(rune('a'+i)))
			}
		}
		r.Rows = append(r.Rows, f)
	}
	if r.Columns == nil {
		r.Columns = []string{"a"}
	}
	return r
}

func TestValueEqual(t *testing.T) {
	for _, c := range []struct {
		a, b string
		eq   bool
	}{
		{"1", "1", true},
		{"12", "12.00", true},
		{"12.00", "12.01", false},
		{"12", "13", false},
		{"0.0385", "0.03847", true},
		{"0.0385", "0.03857", false},
		{"1234567.891", "1234567.8910000001", true},
		{"1e3", "1000", true},
		{"abc", "abc", true},
		{"abc", "abd", false},
		{"abc ", "abc", false},
		{Null, "0", false},
		{Null, Null, true},
		{"-10.00", "-10", true},
		{"2.5", "3", true}, // 3 may be 2.5 rounded
		{"2.4", "3", false},
	} {
		if got := ValueEqual(c.a, c.b); got != c.eq {
			t.Errorf("ValueEqual(%q, %q) = %v", c.a, c.b, got)
		}
		if got := ValueEqual(c.b, c.a); got != c.eq {
			t.Errorf("ValueEqual(%q, %q) = %v", c.b, c.a, got)
		}
	}
}

func TestCompare(t *testing.T) {
	for _, c := range []struct {
		name      string
		want, got *Result
		keys      []int
		eq        bool
		diff      string
	}{
		{"same", res("a,1", "b,2"), res("a,1", "b,2"), nil, true, ""},
		{"unordered", res("a,1", "b,2"), res("b,2", "a,1"), nil, true, ""},
		{"unordered duplicates", res("a,1", "a,1", "b,2"), res("a,1", "b,2", "b,2"), nil, false, "not in the reference"},
		{"row count", res("a,1", "b,2"), res("a,1"), nil, false, "1 rows, want 2"},
		{"ordered wrong order", res("a,1", "b,2"), res("b,2", "a,1"), []int{0}, false, "ORDER BY columns [b], want [a]"},
		{"ties any order", res("x,1", "y,1", "z,0"), res("y,1", "x,1", "z,0"), []int{1}, true, ""},
		{"tie group sizes", res("x,1", "y,1", "z,0"), res("x,1", "y,0", "z,0"), []int{1}, false, "rows 1–1"},
		{"numeric tolerance", res("a,0.0385"), res("a,0.03847"), nil, true, ""},
		{"numeric difference", res("a,12.00"), res("a,12.01"), nil, false, "not in the reference"},
		{"columns", res("a,1"), res("a"), nil, false, "1 columns, want 2"},
		{"null", res(`a,\N`), res("a,0"), nil, false, "not in the reference"},
		{"empty", &Result{Columns: []string{"a"}}, &Result{Columns: []string{"a"}}, nil, true, ""},
		{"tolerant order keys", res("a,12.00", "b,11"), res("a,12", "b,11.00"), []int{1}, true, ""},
	} {
		eq, diff := Compare(c.want, c.got, c.keys)
		if eq != c.eq || !strings.Contains(diff, c.diff) {
			t.Errorf("%s: Compare = %v, %q; want %v, %q", c.name, eq, diff, c.eq, c.diff)
		}
	}
}
