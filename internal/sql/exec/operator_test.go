package exec

import (
	"context"
	"errors"
	"testing"

	"vitess.io/vitess/go/sqltypes"
)

// batches is a source that yields ints 0..n-1 in batches of size rows,
// reusing one batch buffer (as operators do), and counts its calls.
type batches struct {
	n, size       int
	pos           int
	buf           []Row
	opens, closes int
	pulled        int // rows handed out
}

func (b *batches) Open(context.Context) error { b.pos = 0; b.opens++; return nil }

func (b *batches) Next() ([]Row, error) {
	if b.pos >= b.n {
		return nil, nil
	}
	b.buf = b.buf[:0]
	for ; b.pos < b.n && len(b.buf) < b.size; b.pos++ {
		b.buf = append(b.buf, Row{sqltypes.NewInt64(int64(b.pos))})
	}
	b.pulled += len(b.buf)
	return b.buf, nil
}

func (b *batches) Close() error { b.closes++; return nil }

// collect runs op through its life cycle and returns the ints it yields.
func collect(t *testing.T, op Operator) []int64 {
	t.Helper()
	if err := op.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	var out []int64
	for _, r := range drain(t, op) {
		v, err := r[0].ToInt64()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if err := op.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

func ints(from, to int64) []int64 {
	out := []int64{}
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

func sameInts(t *testing.T, got, want []int64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d rows %v, want %d %v", len(got), got, len(want), want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("row %d: got %d, want %d (%v)", i, got[i], want[i], got)
		}
	}
}

func TestLimitAcrossBatches(t *testing.T) {
	for _, tc := range []struct {
		n, size       int
		offset, count uint64
		from, to      int64
		pulled        int
	}{
		{n: 10, size: 3, offset: 0, count: 4, from: 0, to: 4, pulled: 6},
		{n: 10, size: 3, offset: 4, count: 3, from: 4, to: 7, pulled: 9},
		{n: 10, size: 3, offset: 3, count: 3, from: 3, to: 6, pulled: 6},
		{n: 10, size: 1, offset: 2, count: 2, from: 2, to: 4, pulled: 4},
		{n: 10, size: 4, offset: 8, count: 100, from: 8, to: 10, pulled: 10},
		{n: 10, size: 4, offset: 12, count: 5, from: 0, to: 0, pulled: 10},
		{n: 10, size: 4, offset: 0, count: 0, from: 0, to: 0, pulled: 0},
		{n: 0, size: 4, offset: 0, count: 5, from: 0, to: 0, pulled: 0},
	} {
		src := &batches{n: tc.n, size: tc.size}
		l := &Limit{Input: src, Offset: tc.offset, Count: tc.count}
		sameInts(t, collect(t, l), ints(tc.from, tc.to))
		if src.pulled != tc.pulled {
			t.Errorf("%+v: input gave %d rows, want %d (Limit reads no further than it needs)", tc, src.pulled, tc.pulled)
		}
		if src.opens != 1 || src.closes != 1 {
			t.Errorf("%+v: input opened %d, closed %d times", tc, src.opens, src.closes)
		}
		if !l.Full() && tc.count > 0 && tc.to-tc.from == int64(tc.count) {
			t.Errorf("%+v: not Full after %d rows", tc, tc.count)
		}
	}
}

func TestLimitRunsAgain(t *testing.T) {
	l := &Limit{Input: &batches{n: 10, size: 3}, Offset: 2, Count: 5}
	sameInts(t, collect(t, l), ints(2, 7))
	sameInts(t, collect(t, l), ints(2, 7))
}

// keepIf is a Predicate over the int in column 0.
type keepIf func(int64) bool

func (k keepIf) Keep(r Row) (bool, error) {
	v, err := r[0].ToInt64()
	if err != nil {
		return false, err
	}
	return k(v), nil
}

var errPred = errors.New("predicate failed")

type failAt int64

func (f failAt) Keep(r Row) (bool, error) {
	v, _ := r[0].ToInt64()
	if v == int64(f) {
		return false, errPred
	}
	return true, nil
}

func TestFilter(t *testing.T) {
	even := keepIf(func(v int64) bool { return v%2 == 0 })
	sameInts(t, collect(t, &Filter{Input: &batches{n: 11, size: 3}, Pred: even}), []int64{0, 2, 4, 6, 8, 10})
	// Batches whose rows all fail are skipped, not returned empty.
	big := keepIf(func(v int64) bool { return v >= 7 })
	sameInts(t, collect(t, &Filter{Input: &batches{n: 10, size: 2}, Pred: big}), ints(7, 10))
	none := keepIf(func(int64) bool { return false })
	sameInts(t, collect(t, &Filter{Input: &batches{n: 10, size: 2}, Pred: none}), nil)

	f := &Filter{Input: &batches{n: 10, size: 4}, Pred: failAt(5)}
	if err := f.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	if b, err := f.Next(); err != nil || len(b) != 4 {
		t.Fatalf("first batch: %v, %v", b, err)
	}
	if _, err := f.Next(); !errors.Is(err, errPred) {
		t.Fatalf("got %v, want the predicate's error", err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestTree runs a sort over a filter over a limit over a source, and a
// limit over a sort: each stage sees its input's batches.
func TestTree(t *testing.T) {
	odd := keepIf(func(v int64) bool { return v%2 == 1 })
	src := &batches{n: 100, size: 7}
	tree := NewSort(&Filter{Input: &Limit{Input: src, Offset: 10, Count: 30}, Pred: odd},
		Config{Keys: []Key{{Col: 0, Desc: true}}})
	want := []int64{}
	for i := int64(39); i >= 11; i -= 2 {
		want = append(want, i)
	}
	sameInts(t, collect(t, tree), want)
	if src.closes != 1 {
		t.Fatalf("source closed %d times", src.closes)
	}

	lim := &Limit{Input: NewSort(&batches{n: 50, size: 6}, Config{Keys: []Key{{Col: 0, Desc: true}}}), Offset: 3, Count: 4}
	sameInts(t, collect(t, lim), []int64{46, 45, 44, 43})
}
