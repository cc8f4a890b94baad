package query

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/testserver"
)

// TestRun runs queries against a real strata server: a result, an error,
// and a query stopped by KILL QUERY after its time limit, after which the
// pool still works.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server")
	}
	srv := testserver.Start(t, testserver.Options{})
	db := srv.DB(t, "")
	ctx := context.Background()

	out, err := Run(ctx, db, "SELECT 1 AS a, NULL AS b UNION ALL SELECT 2, 'x'", time.Minute)
	if err != nil || out.Status != OK || out.Result == nil {
		t.Fatalf("Run: %+v %v", out, err)
	}
	if got := out.Result.Columns[0] + " " + strings.Join(out.Result.Rows[0], ",") + " " + strings.Join(out.Result.Rows[1], ","); got != `a 1,\N 2,x` {
		t.Errorf("result %q", got)
	}

	out, err = Run(ctx, db, "SELECT * FROM no_such_db.t", time.Minute)
	if err != nil || out.Status != Failed || !strings.Contains(out.Error, "1049") && !strings.Contains(out.Error, "1146") {
		t.Errorf("error: %+v %v", out, err)
	}

	start := time.Now()
	out, err = Run(ctx, db, "SELECT SLEEP(30)", time.Second)
	if err != nil || out.Status != Timeout || time.Since(start) > 20*time.Second {
		t.Errorf("timeout: %+v %v after %v", out, err, time.Since(start))
	}
	if out, err := Run(ctx, db, "SELECT 3", time.Minute); err != nil || out.Status != OK || out.Result.Rows[0][0] != "3" {
		t.Errorf("after the timeout: %+v %v", out, err)
	}
}
