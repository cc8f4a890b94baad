package exec

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"testing"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
)

var env = collations.MySQL8()

const (
	collGeneral = collations.ID(45)  // utf8mb4_general_ci (PAD SPACE)
	collAI      = collations.ID(255) // utf8mb4_0900_ai_ci (NO PAD)
	collBin     = collations.ID(46)  // utf8mb4_bin (PAD SPACE)
)

// randomRows makes n rows: [id, int with NULLs and duplicates, text under
// general_ci, text under 0900_ai_ci, float, a column of mixed types,
// decimal]. id is the input position, to check stability.
func randomRows(r *rand.Rand, n int) []Row {
	words := []string{"a", "A", "a ", "b", "B", "ab", "Ab", "é", "e", "E", "", " ", "zz", "Zz", "ß", "ss"}
	rows := make([]Row, n)
	for i := range rows {
		pick := func(nullPct int, f func() sqltypes.Value) sqltypes.Value {
			if r.IntN(100) < nullPct {
				return sqltypes.NULL
			}
			return f()
		}
		rows[i] = Row{
			sqltypes.NewInt64(int64(i)),
			pick(10, func() sqltypes.Value { return sqltypes.NewInt64(int64(r.IntN(20) - 10)) }),
			pick(10, func() sqltypes.Value { return sqltypes.NewVarChar(words[r.IntN(len(words))]) }),
			pick(10, func() sqltypes.Value { return sqltypes.NewVarChar(words[r.IntN(len(words))]) }),
			pick(5, func() sqltypes.Value { return sqltypes.NewFloat64(float64(r.IntN(40)) / 4) }),
			pick(5, func() sqltypes.Value {
				switch r.IntN(4) {
				case 0:
					return sqltypes.NewInt64(int64(r.IntN(10)))
				case 1:
					return sqltypes.NewUint64(uint64(r.IntN(10)))
				case 2:
					return sqltypes.NewVarChar(strconv.Itoa(r.IntN(10)))
				default:
					return sqltypes.NewFloat64(float64(r.IntN(20)) / 2)
				}
			}),
			pick(5, func() sqltypes.Value {
				return sqltypes.MakeTrusted(sqltypes.Decimal, []byte(fmt.Sprintf("%d.%02d", r.IntN(7)-3, r.IntN(100))))
			}),
		}
	}
	return rows
}

// colls are the collations of randomRows' columns.
var colls = []collations.ID{0, 0, collGeneral, collAI, 0, collBin, 0}

// reference sorts rows the way the sql package's in-memory sortRows does:
// prepared keys and a stable sort.
func reference(t *testing.T, rows []Row, keys []Key, offset, limit uint64) []Row {
	t.Helper()
	type dec struct {
		row  Row
		vals []SortVal
	}
	ds := make([]dec, len(rows))
	for i, r := range rows {
		ds[i].row = r
		for _, k := range keys {
			ds[i].vals = append(ds[i].vals, MakeSortVal(r[k.Col], colls[k.Col]))
		}
	}
	sort.SliceStable(ds, func(i, j int) bool {
		for k, key := range keys {
			c, err := ds[i].vals[k].Compare(&ds[j].vals[k], env)
			if err != nil {
				t.Fatal(err)
			}
			if c != 0 {
				return c < 0 != key.Desc
			}
		}
		return false
	})
	var out []Row
	for i, d := range ds {
		if uint64(i) < offset || limit > 0 && uint64(i) >= offset+limit {
			continue
		}
		out = append(out, d.row)
	}
	return out
}

// drain runs an opened operator to the end, copying the rows; it fails
// on an empty batch (nil is the end).
func drain(t *testing.T, s Operator) []Row {
	t.Helper()
	var out []Row
	for {
		b, err := s.Next()
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return out
		}
		if len(b) == 0 {
			t.Fatal("empty batch before the end")
		}
		for _, r := range b {
			c := make(Row, len(r))
			for i, v := range r {
				if v.IsNull() {
					c[i] = sqltypes.NULL
				} else {
					c[i] = sqltypes.MakeTrusted(v.Type(), slices.Clone(v.Raw()))
				}
			}
			out = append(out, c)
		}
	}
}

func sameRows(t *testing.T, got, want []Row) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range got {
		for j := range got[i] {
			g, w := got[i][j], want[i][j]
			if g.Type() != w.Type() || string(g.Raw()) != string(w.Raw()) || g.IsNull() != w.IsNull() {
				t.Fatalf("row %d col %d: %v, want %v (got row %v, want row %v)", i, j, g, w, got[i], want[i])
			}
		}
	}
}

func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// sortAll sorts rows pushed with Add and checks the output against the
// reference and that no file is left.
func sortAll(t *testing.T, rows []Row, cfg Config) *Sort {
	t.Helper()
	dir := t.TempDir()
	cfg.TempDir, cfg.Env = dir, env
	for i := range cfg.Keys {
		cfg.Keys[i].Coll = 0
	}
	s := NewSorter(cfg)
	defer s.Close()
	for _, r := range rows {
		if err := s.Add(r, colls); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s.Spilled() && len(dirEntries(t, dir)) != 1 {
		t.Fatalf("spilled sort has files %v, want one", dirEntries(t, dir))
	}
	got := drain(t, s)
	sameRows(t, got, reference(t, rows, cfg.Keys, cfg.Offset, cfg.Limit))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Fatalf("files left after Close: %v", left)
	}
	return s
}

func TestSortMatchesInMemory(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	keySets := [][]Key{
		{{Col: 1}},
		{{Col: 2}},
		{{Col: 3, Desc: true}},
		{{Col: 2, Desc: true}, {Col: 1}},
		{{Col: 5}},
		{{Col: 6, Desc: true}, {Col: 4}},
		{{Col: 1, Desc: true}, {Col: 3}, {Col: 5, Desc: true}},
	}
	for _, n := range []int{0, 1, 7, 300, 3000} {
		rows := randomRows(r, n)
		for ki, keys := range keySets {
			for _, bound := range []int64{1 << 30, 8 << 10, 600} {
				t.Run(fmt.Sprintf("n%d/keys%d/bound%d", n, ki, bound), func(t *testing.T) {
					s := sortAll(t, rows, Config{Keys: slices.Clone(keys), MemoryBound: bound})
					if bound == 1<<30 && s.Spilled() {
						t.Fatal("a sort that fits spilled")
					}
					if bound == 600 && n >= 300 && (!s.Spilled() || s.MergePasses() < 2) {
						t.Fatalf("tiny bound: spilled %v, merge passes %d", s.Spilled(), s.MergePasses())
					}
					if s.MaxMemory() > max(bound, 2048) {
						t.Fatalf("held %d bytes, bound %d", s.MaxMemory(), bound)
					}
				})
			}
		}
	}
}

func TestSortLimit(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	rows := randomRows(r, 2000)
	keys := []Key{{Col: 2}, {Col: 1, Desc: true}}
	for _, c := range []struct {
		offset, limit uint64
		bound         int64
		spill         bool
	}{
		{0, 10, 64 << 10, false},   // top-N in a heap
		{5, 10, 64 << 10, false},   // with an offset
		{0, 1, 600, false},         // heap of one row
		{0, 100, 600, true},        // heap outgrows the bound: spills
		{1990, 20, 64 << 10, true}, // too many for a heap
		{0, 5000, 1 << 30, false},
		{3000, 5, 1 << 30, false},
	} {
		t.Run(fmt.Sprintf("offset%d/limit%d/bound%d", c.offset, c.limit, c.bound), func(t *testing.T) {
			s := sortAll(t, rows, Config{Keys: slices.Clone(keys), MemoryBound: c.bound, Offset: c.offset, Limit: c.limit})
			if s.Spilled() != c.spill {
				t.Fatalf("spilled %v, want %v", s.Spilled(), c.spill)
			}
		})
	}
}

// TestSortTopNMemory: a top-N sort of many rows holds only its rows.
func TestSortTopNMemory(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	rows := randomRows(r, 5000)
	s := sortAll(t, rows, Config{Keys: []Key{{Col: 1}, {Col: 3}}, MemoryBound: 256 << 10, Limit: 10})
	if s.Spilled() {
		t.Fatal("top-N spilled")
	}
	if s.MaxMemory() > 10*s.rowSize(rows[0])*2 {
		t.Fatalf("top-10 held %d bytes", s.MaxMemory())
	}
}

// TestSortOperatorInput sorts an input operator (NewSort) with a tiny bound.
func TestSortOperatorInput(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	rows := randomRows(r, 1000)
	dir := t.TempDir()
	keys := []Key{{Col: 2, Coll: collGeneral}, {Col: 0, Desc: true}}
	s := NewSort(&Values{Rows: rows}, Config{Keys: keys, Env: env, MemoryBound: 1000, TempDir: dir})
	if err := s.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := drain(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	sameRows(t, got, reference(t, rows, keys, 0, 0))
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Fatalf("files left: %v", left)
	}
}

// failing yields rows, then an error.
type failing struct {
	Values
	after int
}

var errInput = errors.New("input failed")

func (f *failing) Next() ([]Row, error) {
	if f.pos >= f.after {
		return nil, errInput
	}
	return f.Values.Next()
}

func TestSortErrorRemovesFiles(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	rows := randomRows(r, 2000)
	dir := t.TempDir()
	s := NewSort(&failing{Values: Values{Rows: rows}, after: 1500}, Config{Keys: []Key{{Col: 1}}, Env: env, MemoryBound: 2000, TempDir: dir})
	err := s.Open(context.Background())
	if !errors.Is(err, errInput) {
		t.Fatalf("Open: %v, want the input's error", err)
	}
	if len(dirEntries(t, dir)) == 0 {
		t.Fatal("the sort spilled nothing before the error: the test tests nothing")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Fatalf("files left after an error: %v", left)
	}
}

func TestSortCancel(t *testing.T) {
	rows := randomRows(rand.New(rand.NewPCG(11, 12)), 3000)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	s := NewSort(&Values{Rows: rows}, Config{Keys: []Key{{Col: 1}}, Env: env, MemoryBound: 2000, TempDir: dir})
	defer s.Close()
	if err := s.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Next(); err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := s.Next(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Next after cancel: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Fatalf("files left: %v", left)
	}
}

func TestPrepareTempDir(t *testing.T) {
	dir := t.TempDir() + "/tmp"
	if err := PrepareTempDir(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{TempPrefix + "123", "keep.me"} {
		if err := os.WriteFile(dir+"/"+name, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := PrepareTempDir(dir); err != nil {
		t.Fatal(err)
	}
	if left := dirEntries(t, dir); len(left) != 1 || left[0] != "keep.me" {
		t.Fatalf("after PrepareTempDir: %v", left)
	}
}
