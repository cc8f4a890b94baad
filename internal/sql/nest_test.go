package sql

import (
	"reflect"
	"testing"
)

// TestNestLevels checks where conditions of each scope are evaluated for
// `a LEFT JOIN (b LEFT JOIN (c JOIN d) ON …) ON … JOIN e`: items a b c d
// e (0..4), nest 0 = {b, c, d}, nest 1 = {c, d} inside it.
func TestNestLevels(t *testing.T) {
	b := &fromBuilder{
		items:    make([]*fromItem, 5),
		itemNest: []int{-1, 0, 1, 1, -1},
		nests:    []fromNest{{first: 1, last: 3, parent: -1}, {first: 2, last: 3, parent: 0}},
	}
	pos := []int{0, 1, 2, 3, 4}
	bit := func(items ...int) uint64 {
		var s uint64
		for _, i := range items {
			s |= 1 << i
		}
		return s
	}
	for _, tc := range []struct {
		name  string
		set   uint64
		scope int
		want  int
	}{
		{"WHERE on a", bit(0), -1, 0},
		{"WHERE on b waits for the whole nest", bit(1), -1, 3},
		{"WHERE on a and e", bit(0, 4), -1, 4},
		{"outer ON on a and b", bit(0, 1), 0, 1},
		{"outer ON on c waits for the inner nest", bit(2), 0, 3},
		{"outer ON on a only: at the nest's first level", bit(0), 0, 1},
		{"inner ON on c", bit(2), 1, 2},
		{"inner ON on b and d", bit(1, 3), 1, 3},
		{"constant WHERE", 0, -1, -1},
	} {
		if got := b.condLevel(tc.set, tc.scope, pos); got != tc.want {
			t.Errorf("%s: level %d, want %d", tc.name, got, tc.want)
		}
	}
	for item, want := range [][]int{{-1}, {0}, {1}, {1, 0, -1}, {-1}} {
		if got := b.chain(item); !reflect.DeepEqual(got, want) {
			t.Errorf("chain(%d) = %v, want %v", item, got, want)
		}
	}
	// A semi-join reading c follows the whole outer nest.
	if got := b.settledDeps(bit(2)); got != bit(1, 2, 3) {
		t.Errorf("settledDeps: %b, want %b", got, bit(1, 2, 3))
	}
}
