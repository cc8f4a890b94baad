package catalog

import (
	"reflect"
	"testing"
)

// TestRoutinesPersist: routines survive a restart, are found by name
// case-insensitively, keep procedures and functions apart, bump the catalog
// version, and go with their database.
func TestRoutinesPersist(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, nil, dir)
	c := mustLoad(t, s.db)

	d := c.BeginDDL()
	if err := d.PutDatabase(&Database{Name: "shop"}); err != nil {
		t.Fatal(err)
	}
	p := &Routine{DB: "shop", Name: "Total", Type: "PROCEDURE", ParamList: "OUT n INT",
		Params: []RoutineParam{{Mode: "OUT", Name: "n", Type: "INT"}}, Body: "SET n = 1",
		DataAccess: "CONTAINS SQL", Definer: "root@localhost", SQLMode: "STRICT_TRANS_TABLES", Created: 1, Modified: 2}
	f := &Routine{DB: "shop", Name: "total", Type: "FUNCTION", Returns: "INT", Body: "RETURN 1", DataAccess: "NO SQL"}
	for _, r := range []*Routine{p, f} {
		if err := d.PutRoutine(r); err != nil {
			t.Fatal(err)
		}
	}
	if c.Routine("shop", "PROCEDURE", "total") != nil {
		t.Fatal("routine visible before commit")
	}
	v0 := c.Version()
	mustCommitDDL(t, d)
	if c.Version() == v0 {
		t.Fatal("version unchanged by CREATE PROCEDURE")
	}
	if c.Routine("shop", "PROCEDURE", "TOTAL") != p || c.Routine("shop", "FUNCTION", "Total") != f || !c.HasRoutines() {
		t.Fatal("routines not published, or names not case-insensitive, or name spaces mixed")
	}

	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := openStore(t, nil, dir)
	c2 := mustLoad(t, s2.db)
	if got := c2.Routine("shop", "PROCEDURE", "total"); got == nil || !reflect.DeepEqual(*got, *p) {
		t.Fatalf("procedure after restart: %+v, want %+v", got, p)
	}
	if rs := c2.Routines("shop"); len(rs) != 2 || rs[0].Type != "FUNCTION" {
		t.Fatalf("Routines(shop) = %v", rs)
	}

	d = c2.BeginDDL()
	if err := d.DropRoutine("shop", "FUNCTION", "TOTAL"); err != nil {
		t.Fatal(err)
	}
	mustCommitDDL(t, d)
	if c2.Routine("shop", "FUNCTION", "total") != nil || c2.Routine("shop", "PROCEDURE", "total") == nil {
		t.Fatal("DROP FUNCTION dropped the wrong routine")
	}

	// DROP DATABASE takes its routines with it, also across a restart.
	d = c2.BeginDDL()
	if err := d.DropDatabase("shop"); err != nil {
		t.Fatal(err)
	}
	mustCommitDDL(t, d)
	if c2.Routine("shop", "PROCEDURE", "total") != nil || c2.HasRoutines() {
		t.Fatal("routine left after DROP DATABASE")
	}
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}
	s3 := openStore(t, nil, dir)
	if c3 := mustLoad(t, s3.db); len(c3.Routines("shop")) != 0 {
		t.Fatal("routine back after restart")
	}
}
