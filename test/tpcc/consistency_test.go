package tpcc

import (
	"context"
	"database/sql"
	"fmt"
)

// consistencyQueries are TPC-C's consistency conditions 1–4 (clause 3.3.2),
// each returning one row per violating warehouse or district with the
// figures involved; an empty result means the condition holds.
var consistencyQueries = []struct{ name, q string }{
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
}

// violations runs q and returns its rows rendered as text.
func violations(ctx context.Context, db *sql.DB, q string) ([]string, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("consistency query: %w", err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, fmt.Errorf("consistency query: %w", err)
	}
	var out []string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("consistency query: %w", err)
		}
		line := ""
		for i, v := range vals {
			s := "NULL"
			if v.Valid {
				s = v.String
			}
			line += fmt.Sprintf("%s=%s ", cols[i], s)
		}
		out = append(out, line)
	}
	return out, rows.Err()
}

// orderLineCounts returns o_ol_cnt and the number of order_line rows of
// every order, keyed by (w, d, o).
func orderLineCounts(ctx context.Context, db *sql.DB) (map[[3]int][2]int, error) {
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
