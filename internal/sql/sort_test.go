package sql

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sortedIDs is the id order of streamTable's rows under ORDER BY w, v
// DESC, id (v repeats the last digit of id).
func sortedIDs(n int) []string {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i + 1
	}
	slices.SortStableFunc(ids, func(a, b int) int {
		if a%7 != b%7 {
			return a%7 - b%7
		}
		if a%10 != b%10 {
			return b%10 - a%10
		}
		return a - b
	})
	out := make([]string, n)
	for i, id := range ids {
		out[i] = strconv.Itoa(id)
	}
	return out
}

func TestSortSpillsAndStreams(t *testing.T) {
	const n = 6000
	s := streamTable(t, n)
	dir := t.TempDir()
	if err := s.eng.UseTmpDir(dir); err != nil {
		t.Fatal(err)
	}
	const q = "SELECT id, v FROM t ORDER BY w, v DESC, id"
	want := sortedIDs(n)
	passes := func() int {
		p, _ := strconv.Atoi(oneValue(t, s, "SHOW SESSION STATUS LIKE 'Sort_merge_passes'"))
		return p
	}
	before := passes()

	// Through the streaming path: several batches, the rows in order.
	var files []string
	got, err := batches(s, q, func(int) error {
		if files == nil {
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				files = append(files, e.Name())
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, b := range got {
		if len(b.Fields) != 2 || b.Fields[0].Name != "id" {
			t.Fatalf("fields %v", b.Fields)
		}
		for _, r := range b.Rows {
			if len(r) != 2 || r[1].ToString() != strings.Repeat(r[0].ToString()[len(r[0].ToString())-1:], 40) {
				t.Fatalf("row %v", r)
			}
			ids = append(ids, r[0].ToString())
		}
	}
	if !slices.Equal(ids, want) {
		t.Fatalf("streamed order differs: %d rows, first %v", len(ids), ids[:min(5, len(ids))])
	}
	if len(got) < n/batchRows {
		t.Fatalf("a spilled sort came in %d batches", len(got))
	}
	if len(files) != 1 || !strings.HasPrefix(files[0], "strata-sort-") {
		t.Fatalf("files while streaming: %v", files)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("files left: %v", ents)
	}
	if p := passes(); p <= before {
		t.Fatalf("Sort_merge_passes %d, was %d", p, before)
	}
	if v := oneValue(t, s, "SELECT FOUND_ROWS()"); v != strconv.Itoa(n) {
		t.Fatalf("FOUND_ROWS() = %s", v)
	}

	// Whole (internal callers and subqueries): the same rows.
	res, err := s.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	ids = ids[:0]
	for _, r := range res.Rows {
		ids = append(ids, r[0].ToString())
	}
	if !slices.Equal(ids, want) {
		t.Fatal("whole result's order differs")
	}

	// LIMIT/OFFSET over a spilled sort, and a top-N that does not spill.
	for _, c := range []struct {
		q          string
		from, to   int
		passesMove bool
	}{
		{q + " LIMIT 100, 5000", 100, 5100, true},
		{q + " LIMIT 10", 0, 10, false},
		{q + " LIMIT 5990, 20", 5990, 6000, true},
	} {
		before := passes()
		got, err := batches(s, c.q, nil)
		if err != nil {
			t.Fatal(err)
		}
		ids = ids[:0]
		for _, b := range got {
			for _, r := range b.Rows {
				ids = append(ids, r[0].ToString())
			}
		}
		if !slices.Equal(ids, want[c.from:c.to]) {
			t.Fatalf("%s: %d rows, first %v", c.q, len(ids), ids[:min(3, len(ids))])
		}
		if moved := passes() > before; moved != c.passesMove {
			t.Fatalf("%s: merge passes moved %v", c.q, moved)
		}
	}

	// A column without a static type (a user variable): the spilled sort's
	// rows are copied and sent whole at the end, in order.
	got, err = batches(s, "SELECT id, @nothing FROM t ORDER BY w, v DESC, id", nil)
	if err != nil || len(got) != 1 || len(got[0].Rows) != n {
		t.Fatalf("no static type: %d batches, err %v", len(got), err)
	}
	for i, r := range got[0].Rows {
		if r[0].ToString() != want[i] || !r[1].IsNull() {
			t.Fatalf("no static type: row %d is %v, want id %s", i, r, want[i])
		}
	}

	// A derived table sorts the same way.
	if v := oneValue(t, s, "SELECT COUNT(*) FROM (SELECT id FROM t ORDER BY v, id LIMIT 5500) x"); v != "5500" {
		t.Fatalf("derived: %s", v)
	}

	// A sort that fits sends one batch and creates no file.
	checkExec(t, s, "SET sort_buffer_size = 64 * 1024 * 1024")
	before = passes()
	got, err = batches(s, q, nil)
	if err != nil || len(got) != 1 || len(got[0].Rows) != n {
		t.Fatalf("in memory: %d batches, err %v", len(got), err)
	}
	if passes() != before {
		t.Fatal("an in-memory sort counted a merge pass")
	}
}
