package catalog

import (
	"reflect"
	"testing"
)

// TestViewsPersist: views survive a restart, share the table name space,
// bump the catalog version, and go with their database.
func TestViewsPersist(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, nil, dir)
	c := mustLoad(t, s.db)

	d := c.BeginDDL()
	if err := d.PutDatabase(&Database{Name: "shop"}); err != nil {
		t.Fatal(err)
	}
	if err := d.PutTable(testTable(d, "shop", "orders")); err != nil {
		t.Fatal(err)
	}
	v := &View{DB: "shop", Name: "big", Select: "select `id` AS `id` from `shop`.`orders`",
		Columns: []string{"id"}, Algorithm: "UNDEFINED", DefinerUser: "root", DefinerHost: "localhost",
		Security: "DEFINER", CheckOption: "CASCADED", CharsetClient: "utf8mb4", CollationConnection: "utf8mb4_0900_ai_ci"}
	if err := d.PutView(v); err != nil {
		t.Fatal(err)
	}
	if c.View("shop", "big") != nil {
		t.Fatal("view visible before commit")
	}
	v0 := c.Version()
	mustCommitDDL(t, d)
	if c.Version() == v0 {
		t.Fatal("version unchanged by CREATE VIEW")
	}
	if c.View("shop", "big") != v || !c.Exists("shop", "big") || !c.Exists("shop", "orders") || c.Exists("shop", "nope") {
		t.Fatal("view not published or name space wrong")
	}
	if c.Table("shop", "big") != nil {
		t.Fatal("a view is not a table")
	}

	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := openStore(t, nil, dir)
	c2 := mustLoad(t, s2.db)
	if got := c2.View("shop", "big"); got == nil || !reflect.DeepEqual(*got, *v) {
		t.Fatalf("view after restart: %+v, want %+v", got, v)
	}
	if vs := c2.Views("shop"); len(vs) != 1 {
		t.Fatalf("Views(shop) = %v", vs)
	}

	d = c2.BeginDDL()
	if err := d.DropView("shop", "big"); err != nil {
		t.Fatal(err)
	}
	mustCommitDDL(t, d)
	if c2.View("shop", "big") != nil {
		t.Fatal("dropped view still there")
	}

	// DROP DATABASE takes its views with it, also across a restart.
	d = c2.BeginDDL()
	if err := d.PutView(&View{DB: "shop", Name: "v2", Select: "select 1 AS `1`", Columns: []string{"1"}}); err != nil {
		t.Fatal(err)
	}
	mustCommitDDL(t, d)
	d = c2.BeginDDL()
	if err := d.DropTable(c2.Table("shop", "orders")); err != nil {
		t.Fatal(err)
	}
	if err := d.DropDatabase("shop"); err != nil {
		t.Fatal(err)
	}
	mustCommitDDL(t, d)
	if c2.View("shop", "v2") != nil || len(c2.Views("shop")) != 0 {
		t.Fatal("view survived DROP DATABASE")
	}
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}
	s3 := openStore(t, nil, dir)
	c3 := mustLoad(t, s3.db)
	if c3.View("shop", "v2") != nil {
		t.Fatal("view of a dropped database came back after restart")
	}
}
