package stress

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/go-sql-driver/mysql"
)

// xlogRow is one row of the xlog table.
type xlogRow struct {
	transfer
	checksum string
}

// verifyStats summarises one verification.
type verifyStats struct {
	xlogRows          int
	resolvedCommitted int64
	resolvedAborted   int64
}

// checkTableState remembers whether the server implements CHECK TABLE.
type checkTableState struct {
	runs        int
	unsupported string // the server's error, when it lacks CHECK TABLE
}

// verify checks the database after a restart, with no other client running:
// acknowledged transactions present and unchanged, aborted ones absent,
// in-doubt ones resolved (all or nothing), balances and versions equal to
// what the xlog rows present imply, the total, every checksum, and CHECK
// TABLE. It records violations in stats and resolves in-doubt transactions
// in the ledger. The returned error means the verification could not run.
func verify(ctx context.Context, db *sql.DB, accounts int, l *ledger, stats *runStats, ct *checkTableState, label string) (verifyStats, error) {
	var vs verifyStats
	conn, err := db.Conn(ctx)
	if err != nil {
		return vs, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "START TRANSACTION WITH CONSISTENT SNAPSHOT"); err != nil {
		return vs, err
	}
	xlog, err := readXlog(ctx, conn)
	if err != nil {
		return vs, err
	}
	accts, err := readAccounts(ctx, conn)
	if err != nil {
		return vs, err
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		return vs, err
	}
	vs.xlogRows = len(xlog)
	v := func(format string, args ...any) { stats.violation(label+": "+format, args...) }

	// Every xlog row belongs to a transaction that may be present, with the
	// content the client wrote.
	for id, x := range xlog {
		rec, ok := l.get(id)
		switch {
		case !ok:
			v("xlog row %d was never written by a loader", id)
			continue
		case rec.state.mustBeAbsent():
			v("transaction %d (%s) is visible", id, rec.state)
		case rec.state == statePending:
			v("transaction %d still pending at verification (internal error)", id)
		}
		if x.transfer != rec.transfer {
			v("xlog row %d is %+v, the client wrote %+v", id, x.transfer, rec.transfer)
		}
		if x.checksum != xlogChecksum(id, x.transfer) {
			v("xlog row %d: bad checksum %q", id, x.checksum)
		}
	}
	// Acknowledged transactions are present; in-doubt ones get resolved.
	l.each(func(id int64, r *txRecord) {
		_, present := xlog[id]
		switch {
		case r.state.mustBePresent() && !present:
			v("transaction %d (%s) is lost", id, r.state)
		case r.state == stateInDoubt && present:
			r.state = stateResolved
			vs.resolvedCommitted++
		case r.state == stateInDoubt:
			r.state = stateAborted
			vs.resolvedAborted++
		}
	})
	// Balances and versions must be exactly those implied by the xlog rows
	// present: a partially applied transaction would break this.
	bal := make([]int64, accounts+1)
	ver := make([]int64, accounts+1)
	for i := range bal {
		bal[i] = initialFunds
	}
	for id, x := range xlog {
		if x.src < 1 || int(x.src) > accounts || x.dst < 1 || int(x.dst) > accounts {
			v("xlog row %d names accounts %d → %d outside 1..%d", id, x.src, x.dst, accounts)
			continue
		}
		bal[x.src] -= x.amount
		bal[x.dst] += x.amount
		ver[x.src]++
		ver[x.dst]++
	}
	if len(accts) != accounts {
		v("accounts has %d rows, want %d", len(accts), accounts)
	}
	var sum int64
	for _, a := range accts {
		sum += a.balance
		if a.checksum != accountChecksum(a.id, a.balance, a.version, a.tag) {
			v("account %d: bad checksum %q for (%d, %d, %q)", a.id, a.checksum, a.balance, a.version, a.tag)
		}
		if a.id < 1 || int(a.id) > accounts {
			v("unexpected account id %d", a.id)
			continue
		}
		if a.balance != bal[a.id] || a.version != ver[a.id] {
			v("account %d has balance %d version %d; the xlog rows present imply %d, %d (partial transaction?)",
				a.id, a.balance, a.version, bal[a.id], ver[a.id])
		}
		if a.tag != accountTag(a.id, a.version) {
			v("account %d: tag %q does not match version %d", a.id, a.tag, a.version)
		}
	}
	if want := int64(accounts) * initialFunds; sum != want {
		v("SUM(balance) = %d, want %d", sum, want)
	}
	if err := checkTables(ctx, conn, ct, v); err != nil {
		return vs, err
	}
	return vs, nil
}

func readXlog(ctx context.Context, q queryer) (map[int64]xlogRow, error) {
	rs, err := q.QueryContext(ctx, "SELECT txid, src, dst, amount, checksum FROM xlog")
	if err != nil {
		return nil, fmt.Errorf("read xlog: %w", err)
	}
	defer rs.Close()
	out := map[int64]xlogRow{}
	for rs.Next() {
		var (
			id int64
			x  xlogRow
		)
		if err := rs.Scan(&id, &x.src, &x.dst, &x.amount, &x.checksum); err != nil {
			return nil, fmt.Errorf("read xlog: %w", err)
		}
		out[id] = x
	}
	if err := rs.Err(); err != nil {
		return nil, fmt.Errorf("read xlog: %w", err)
	}
	return out, nil
}

// checkTables runs CHECK TABLE on both tables; every row must say status OK.
// A server without CHECK TABLE (1064 syntax error, 1235 not supported) is
// noted in ct, not a violation.
func checkTables(ctx context.Context, q queryer, ct *checkTableState, v func(string, ...any)) error {
	if ct.unsupported != "" {
		return nil
	}
	rs, err := q.QueryContext(ctx, "CHECK TABLE accounts, xlog")
	if err != nil {
		var me *mysql.MySQLError
		if errors.As(err, &me) && (me.Number == 1064 || me.Number == 1235) {
			ct.unsupported = fmt.Sprintf("error %d: %s", me.Number, me.Message)
			return nil
		}
		return fmt.Errorf("CHECK TABLE: %w", err)
	}
	defer rs.Close()
	tables := map[string]bool{}
	for rs.Next() {
		var tbl, op, typ, text string
		if err := rs.Scan(&tbl, &op, &typ, &text); err != nil {
			return fmt.Errorf("CHECK TABLE: %w", err)
		}
		tables[tbl] = true
		if !strings.EqualFold(typ, "status") || text != "OK" {
			v("CHECK TABLE %s: %s: %s", tbl, typ, text)
		}
	}
	if err := rs.Err(); err != nil {
		return fmt.Errorf("CHECK TABLE: %w", err)
	}
	if len(tables) != 2 {
		v("CHECK TABLE accounts, xlog returned rows for %d tables, want 2", len(tables))
	}
	ct.runs++
	return nil
}
