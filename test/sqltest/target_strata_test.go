//go:build !sqltest_nostrata

package sqltest_test

import (
	"database/sql"
	"testing"

	"github.com/strata-db/strata/internal/testserver"
)

// startStrata starts the one strata server the scripts run against and
// returns a DSN without a database. The server lives until t ends.
//
// The background statistics refresh is switched off: it would analyze a
// script's tables at moments the script does not control, and a join order
// chosen from statistics instead of the written order changes EXPLAIN
// output mid-script. Scripts about statistics run ANALYZE TABLE.
func startStrata(t *testing.T) string {
	srv := testserver.Start(t, testserver.Options{})
	db, err := sql.Open("mysql", srv.DSN(""))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("SET GLOBAL innodb_stats_auto_recalc = OFF"); err != nil {
		t.Fatal(err)
	}
	return srv.DSN("")
}
