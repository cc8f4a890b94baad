package sql

import (
	"context"
	"testing"
)

// TestSelectIntoNoRows: no row leaves the variable as it was and warns
// 1329.
func TestSelectIntoNoRows(t *testing.T) {
	_, s := newCheckEngine(t)
	ctx := context.Background()
	checkExec(t, s, "SET @a = 7")
	if _, err := s.Query(ctx, "SELECT a INTO @a FROM t WHERE id = 99"); err != nil {
		t.Fatal(err)
	}
	if w := s.Warnings(); len(w) != 1 || w[0].Code != 1329 {
		t.Fatalf("warnings %+v, want 1329", w)
	}
	res, err := s.Query(ctx, "SELECT @a")
	if err != nil || res.Rows[0][0].ToString() != "7" {
		t.Fatalf("@a = %v, %v; want 7", res, err)
	}
}
