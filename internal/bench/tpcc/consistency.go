package tpcc

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/strata-db/strata/internal/bench/query"
)

// Check is a consistency condition as one query that returns a row per
// violation (with the figures involved); an empty result means it holds.
type Check struct {
	Name  string `json:"name"`
	Query string `json:"query"`
}

// Checks are TPC-C's consistency conditions 1–4 (clause 3.3.2.1–4) and a
// customer-balance check: every customer's balance equals the amounts of
// its delivered order lines minus its payments. It holds for the initial
// database (C_BALANCE −10.00, one 10.00 payment, delivered lines of amount
// 0.00) and every transaction keeps it (payment subtracts the amount and
// inserts it into history; delivery adds the order's line amounts and
// marks the lines delivered).
var Checks = []Check{
	{"1: W_YTD = sum(D_YTD)",
		`SELECT w.w_id, w.w_ytd, SUM(d.d_ytd)
		 FROM warehouse w JOIN district d ON d.d_w_id = w.w_id
		 GROUP BY w.w_id, w.w_ytd
		 HAVING w.w_ytd <> SUM(d.d_ytd)`},
	{"2: D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)",
		`SELECT * FROM (
		   SELECT d.d_w_id, d.d_id, d.d_next_o_id,
		          (SELECT MAX(o.o_id) FROM orders o WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id) AS max_o,
		          (SELECT MAX(n.no_o_id) FROM new_orders n WHERE n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id) AS max_no
		   FROM district d) x
		 WHERE x.d_next_o_id - 1 <> x.max_o OR x.max_o IS NULL OR (x.max_no IS NOT NULL AND x.max_no <> x.max_o)`},
	{"3: max(NO_O_ID) - min(NO_O_ID) + 1 = count(new_orders)",
		`SELECT no_w_id, no_d_id, MAX(no_o_id), MIN(no_o_id), COUNT(*)
		 FROM new_orders
		 GROUP BY no_w_id, no_d_id
		 HAVING MAX(no_o_id) - MIN(no_o_id) + 1 <> COUNT(*)`},
	{"4: sum(O_OL_CNT) = count(order_line)",
		`SELECT o.o_w_id, o.o_d_id, o.s, l.c
		 FROM (SELECT o_w_id, o_d_id, SUM(o_ol_cnt) AS s FROM orders GROUP BY o_w_id, o_d_id) o
		 LEFT JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) AS c FROM order_line GROUP BY ol_w_id, ol_d_id) l
		   ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id
		 WHERE l.c IS NULL OR o.s <> l.c`},
	{"customer balance: C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT)",
		`SELECT c.c_w_id, c.c_d_id, c.c_id, c.c_balance, COALESCE(ol.delivered, 0) AS delivered, COALESCE(h.paid, 0) AS paid
		 FROM customer c
		 LEFT JOIN (SELECT o.o_w_id, o.o_d_id, o.o_c_id, SUM(l.ol_amount) AS delivered
		            FROM orders o JOIN order_line l ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
		            WHERE l.ol_delivery_d IS NOT NULL
		            GROUP BY o.o_w_id, o.o_d_id, o.o_c_id) ol
		   ON ol.o_w_id = c.c_w_id AND ol.o_d_id = c.c_d_id AND ol.o_c_id = c.c_id
		 LEFT JOIN (SELECT h_c_w_id, h_c_d_id, h_c_id, SUM(h_amount) AS paid
		            FROM history GROUP BY h_c_w_id, h_c_d_id, h_c_id) h
		   ON h.h_c_w_id = c.c_w_id AND h.h_c_d_id = c.c_d_id AND h.h_c_id = c.c_id
		 WHERE c.c_balance <> COALESCE(ol.delivered, 0) - COALESCE(h.paid, 0)`},
}

// CheckResult is the outcome of one check.
type CheckResult struct {
	Name       string        `json:"name"`
	Outcome    query.Outcome `json:"outcome"`
	Violations []string      `json:"violations,omitempty"` // the first few violating rows
	Count      int           `json:"violation_count"`
}

// Holds reports whether the check ran and found no violation.
func (c CheckResult) Holds() bool { return c.Outcome.Status == query.OK && c.Count == 0 }

// String is "holds", "violated (n rows): …" or the error.
func (c CheckResult) String() string {
	switch {
	case c.Outcome.Status != query.OK:
		return c.Outcome.Status + ": " + c.Outcome.Error
	case c.Count == 0:
		return "holds"
	}
	return fmt.Sprintf("violated (%d rows): %s", c.Count, strings.Join(c.Violations, "; "))
}

// maxShown is how many violating rows a CheckResult keeps.
const maxShown = 5

// RunChecks runs every check, each limited to timeout.
func RunChecks(ctx context.Context, db *sql.DB, timeout time.Duration) ([]CheckResult, error) {
	var out []CheckResult
	for _, c := range Checks {
		o, err := query.Run(ctx, db, c.Query, timeout)
		if err != nil {
			return out, fmt.Errorf("consistency check %s: %w", c.Name, err)
		}
		r := CheckResult{Name: c.Name, Outcome: o}
		if o.Result != nil {
			r.Count = len(o.Result.Rows)
			for _, row := range o.Result.Rows[:min(len(o.Result.Rows), maxShown)] {
				var parts []string
				for i, v := range row {
					parts = append(parts, o.Result.Columns[i]+"="+v)
				}
				r.Violations = append(r.Violations, strings.Join(parts, " "))
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// OrderLineCounts returns o_ol_cnt and the number of order_line rows of
// every order, keyed by (w, d, o).
func OrderLineCounts(ctx context.Context, db *sql.DB) (map[[3]int][2]int, error) {
	out := map[[3]int][2]int{}
	rows, err := db.QueryContext(ctx, `SELECT o.o_w_id, o.o_d_id, o.o_id, o.o_ol_cnt,
		(SELECT COUNT(*) FROM order_line l WHERE l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id)
		FROM orders o`)
	if err != nil {
		return nil, fmt.Errorf("order line counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k [3]int
		var v [2]int
		if err := rows.Scan(&k[0], &k[1], &k[2], &v[0], &v[1]); err != nil {
			return nil, fmt.Errorf("order line counts: %w", err)
		}
		out[k] = v
	}
	return out, rows.Err()
}
