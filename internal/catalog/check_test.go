package catalog

import (
	"reflect"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
)

func TestGeneratedCheckNames(t *testing.T) {
	for _, tc := range []struct {
		table, name string
		n           int
		ok          bool
	}{
		{"t1", "t1_chk_1", 1, true},
		{"t1", "T1_CHK_12", 12, true},
		{"t1", "t1_chk_", 0, false},
		{"t1", "t1_chk_0", 0, false},
		{"t1", "t1_chk_1a", 0, false},
		{"t1", "t2_chk_1", 0, false},
		{"t1", "t1_p_ck", 0, false},
		{"t", "t1_chk_1", 0, false},
	} {
		n, ok := GeneratedCheckNumber(tc.table, tc.name)
		if n != tc.n || ok != tc.ok {
			t.Errorf("GeneratedCheckNumber(%q, %q) = %d, %v; want %d, %v", tc.table, tc.name, n, ok, tc.n, tc.ok)
		}
	}
	cs := []CheckConstraint{{Name: "t1_chk_2"}, {Name: "max"}, {Name: "t1_chk_10"}, {Name: "t1_p_ck"}}
	if m := MaxGeneratedCheckNumber("t1", cs); m != 10 {
		t.Fatalf("MaxGeneratedCheckNumber = %d, want 10", m)
	}
	RenameGeneratedChecks(cs, "t1", "t6")
	var names []string
	for _, c := range cs {
		names = append(names, c.Name)
	}
	// Generated names follow the table; others stay; MySQL order (by name).
	want := []string{"max", "t1_p_ck", "t6_chk_10", "t6_chk_2"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("after rename: %q, want %q", names, want)
	}
}

func TestSortChecksCaseInsensitive(t *testing.T) {
	cs := []CheckConstraint{{Name: "b"}, {Name: "C"}, {Name: "a"}, {Name: "t1_chk_1"}, {Name: "t1_chk_10"}, {Name: "t1_chk_2"}}
	SortChecks(cs)
	var names []string
	for _, c := range cs {
		names = append(names, c.Name)
	}
	want := []string{"a", "b", "C", "t1_chk_1", "t1_chk_10", "t1_chk_2"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("sorted: %q, want %q", names, want)
	}
}

func TestCheckColumns(t *testing.T) {
	c := CheckConstraint{Name: "c", Clause: "((`f1` + `F2`) > 0)", Columns: []string{"f1", "F2"}}
	if !c.Uses("F1") || !c.Uses("f2") || c.Uses("f3") {
		t.Fatal("Uses")
	}
	if c.UsesOnly("f1") {
		t.Fatal("UsesOnly(f1) with two columns")
	}
	one := CheckConstraint{Columns: []string{"f1"}}
	if !one.UsesOnly("F1") || one.UsesOnly("f2") {
		t.Fatal("UsesOnly with one column")
	}
	if (&CheckConstraint{}).UsesOnly("f1") {
		t.Fatal("UsesOnly without columns")
	}
}

// TestChecksPersistAndClone: CHECK constraints survive a restart, Clone
// copies them deeply, and CheckOwner finds names per database.
func TestChecksPersistAndClone(t *testing.T) {
	s := openStore(t, vfs.NewMem(), "/db")
	c := mustLoad(t, s.db)
	d := c.BeginDDL()
	if err := d.PutDatabase(&Database{Name: "shop"}); err != nil {
		t.Fatal(err)
	}
	orders := testTable(d, "shop", "orders")
	orders.Checks = []CheckConstraint{
		{Name: "orders_chk_1", Clause: "(`id` > 0)", Columns: []string{"id"}},
		{Name: "Positive", Clause: "(`Name` <> _utf8mb4'')", Columns: []string{"Name"}, NotEnforced: true},
	}
	if err := d.PutTable(orders); err != nil {
		t.Fatal(err)
	}
	mustCommitDDL(t, d)
	checkConsistent(t, c)

	fresh := mustLoad(t, s.db)
	sameTable(t, fresh.Table("shop", "orders"), orders)
	if got := fresh.CheckOwner("shop", "POSITIVE", ""); got == nil || got.Name != "orders" {
		t.Fatalf("CheckOwner(POSITIVE) = %v", got)
	}
	if got := fresh.CheckOwner("shop", "positive", "orders"); got != nil {
		t.Fatalf("CheckOwner skipping orders = %v", got.Name)
	}
	if got := fresh.CheckOwner("other", "positive", ""); got != nil {
		t.Fatal("CheckOwner found a name in another database")
	}

	cl := orders.Clone()
	cl.Checks[0].Columns[0] = "changed"
	cl.Checks[1].NotEnforced = false
	if orders.Checks[0].Columns[0] != "id" || !orders.Checks[1].NotEnforced {
		t.Fatal("Clone shares CHECK constraint state with the original")
	}
	if i := orders.CheckIndex("ORDERS_CHK_1"); i != 0 {
		t.Fatalf("CheckIndex = %d", i)
	}
	if !orders.HasEnforcedChecks() {
		t.Fatal("HasEnforcedChecks")
	}
}
