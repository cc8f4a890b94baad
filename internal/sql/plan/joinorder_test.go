package plan_test

import (
	"slices"
	"testing"
	"time"

	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
)

// intTable is a table of BIGINT columns with a primary key on its first
// column and a secondary index on each column named in secondary.
func intTable(name string, id uint32, cols []string, secondary ...string) *catalog.Table {
	t := &catalog.Table{DB: "d", Name: name, AutoIncCol: -1}
	for _, c := range cols {
		t.Columns = append(t.Columns, catalog.Column{Name: c, Type: sqltypes.Int64, TypeName: "bigint"})
	}
	t.Indexes = append(t.Indexes, &catalog.Index{ID: id, Name: "PRIMARY", Primary: true, Unique: true,
		Columns: []catalog.IndexColumn{{Col: 0}}})
	for k, c := range secondary {
		t.Indexes = append(t.Indexes, &catalog.Index{ID: id + 1 + uint32(k), Name: c,
			Columns: []catalog.IndexColumn{{Col: t.ColumnIndex(c)}}})
	}
	return t
}

// fakeStats serves statistics from a map; a table without an entry has
// none.
type fakeStats map[*catalog.Table]*catalog.TableStats

func (f fakeStats) TableStats(t *catalog.Table) *catalog.TableStats { return f[t] }

func (f fakeStats) EstimatedRows(t *catalog.Table, st *catalog.TableStats) int64 {
	return st.RowCount()
}

// analyzed returns statistics of rows rows whose every index has distinct
// values in ndiff (by index name; unique indexes: rows).
func analyzed(t *catalog.Table, rows int64, ndiff map[string]int64) *catalog.TableStats {
	var ixs []catalog.IndexStats
	for _, ix := range t.Indexes {
		d := rows
		if n, ok := ndiff[ix.Name]; ok {
			d = n
		}
		ixs = append(ixs, catalog.IndexStats{ID: ix.ID, NDiff: []int64{d}})
	}
	return catalog.NewTableStats(t, rows, 1, time.Unix(0, 0), ixs, nil)
}

// joinOrderOf plans the join order of tables (in written order) under the
// WHERE clause where.
func joinOrderOf(t *testing.T, tables []*catalog.Table, where string, stats plan.Statistics) []int {
	t.Helper()
	stmt, err := sqlparser.NewTestParser().Parse("SELECT 1 FROM t WHERE " + where)
	if err != nil {
		t.Fatal(err)
	}
	conds := plan.SplitAnd(stmt.(*sqlparser.Select).Where.Expr)
	sc := &eval.Scope{}
	offs := make([]int, len(tables))
	items := make([]plan.JoinTable, len(tables))
	for i, tb := range tables {
		offs[i] = len(sc.Cols)
		sc.AddTable(tb, tb.Name)
		items[i] = plan.JoinTable{Def: tb}
	}
	sets := make([]uint64, len(conds))
	for k, c := range conds {
		if sets[k], err = plan.ReferencedSet(c, sc, offs, nil); err != nil {
			t.Fatal(err)
		}
	}
	return plan.JoinOrder(items, sets, false, &plan.CostInput{Stats: stats, Scope: sc, Offs: offs, Conds: conds, Sets: sets})
}

// TestJoinOrderHeuristic: without statistics, a table joined to nothing
// placed so far is put off; otherwise the written order stays.
func TestJoinOrderHeuristic(t *testing.T) {
	a := intTable("a", 10, []string{"id", "x"})
	b := intTable("b", 20, []string{"id", "y"})
	c := intTable("c", 30, []string{"id", "x", "y"})
	tables := []*catalog.Table{a, b, c}
	cases := []struct {
		where string
		want  []int
	}{
		{"a.x = c.x AND c.y = b.y", []int{0, 2, 1}}, // b put off until c
		{"a.x = b.y AND b.y = c.y", []int{0, 1, 2}}, // no cross product: as written
		{"a.x = 1 AND b.y = 2 AND c.y = 3", []int{0, 1, 2}},
	}
	for _, tc := range cases {
		if got := joinOrderOf(t, tables, tc.where, fakeStats{}); !slices.Equal(got, tc.want) {
			t.Errorf("%s: order %v, want %v", tc.where, got, tc.want)
		}
	}
}

// TestJoinOrderCost: with statistics for every table the order is chosen
// by cost: the few rows of a filtered small table drive index lookups
// into a large one, whichever is written first; with one table
// unanalyzed the written order stays.
func TestJoinOrderCost(t *testing.T) {
	big := intTable("big", 10, []string{"id", "sid", "v"}, "sid")
	small := intTable("small", 20, []string{"id", "k"}, "k")
	stats := fakeStats{
		big:   analyzed(big, 1_000_000, map[string]int64{"sid": 1000}),
		small: analyzed(small, 1000, map[string]int64{"k": 100}),
	}
	where := "big.sid = small.id AND small.k = 7"
	if got := joinOrderOf(t, []*catalog.Table{big, small}, where, stats); !slices.Equal(got, []int{1, 0}) {
		t.Errorf("big, small: order %v, want [1 0] (small first)", got)
	}
	if got := joinOrderOf(t, []*catalog.Table{small, big}, where, stats); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("small, big: order %v, want [0 1] (small first)", got)
	}
	// A filter on big's unique key makes big the one-row driver.
	where = "big.sid = small.id AND big.id = 42"
	if got := joinOrderOf(t, []*catalog.Table{small, big}, where, stats); !slices.Equal(got, []int{1, 0}) {
		t.Errorf("point read on big: order %v, want [1 0] (big first)", got)
	}
	delete(stats, small)
	if got := joinOrderOf(t, []*catalog.Table{big, small}, "big.sid = small.id AND small.k = 7", stats); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("without statistics for small: order %v, want the written [0 1]", got)
	}
}
