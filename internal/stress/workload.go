package stress

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Database and schema of the workload. Every table has secondary indexes
// (one unique) so CHECK TABLE has something to verify.
const (
	dbName       = "stress"
	schemaAccts  = "CREATE TABLE accounts (id INT NOT NULL PRIMARY KEY, balance BIGINT NOT NULL, version BIGINT NOT NULL, tag VARCHAR(40) NOT NULL, checksum CHAR(8) NOT NULL, UNIQUE KEY u_tag (tag), KEY k_balance (balance))"
	schemaXlog   = "CREATE TABLE xlog (txid BIGINT NOT NULL PRIMARY KEY, src INT NOT NULL, dst INT NOT NULL, amount BIGINT NOT NULL, checksum CHAR(8) NOT NULL, KEY k_src (src), KEY k_dst (dst, amount))"
	initialFunds = 1000
	maxAmount    = 100
	// rollbackPercent of loader transactions end with ROLLBACK on purpose.
	rollbackPercent = 5
	// errorBackoff is the pause after a failed transaction (the server is
	// usually being killed).
	errorBackoff = 20 * time.Millisecond
	// checkerPause is the pause between two checker rounds.
	checkerPause = 50 * time.Millisecond
)

// accountTag is the unique tag of an account at a version.
func accountTag(id int32, version int64) string {
	return "a" + strconv.Itoa(int(id)) + "-v" + strconv.FormatInt(version, 10)
}

// accountChecksum is the CRC-32 of an account row's own content.
func accountChecksum(id int32, balance, version int64, tag string) string {
	return fmt.Sprintf("%08x", crc32.ChecksumIEEE([]byte(fmt.Sprintf("%d|%d|%d|%s", id, balance, version, tag))))
}

// xlogChecksum is the CRC-32 of an xlog row's own content.
func xlogChecksum(txid int64, t transfer) string {
	return fmt.Sprintf("%08x", crc32.ChecksumIEEE([]byte(fmt.Sprintf("%d|%d|%d|%d", txid, t.src, t.dst, t.amount))))
}

// setupSchema creates the database and the initial accounts.
func setupSchema(ctx context.Context, db *sql.DB, accounts int) error {
	stmts := []string{"CREATE DATABASE " + dbName, "USE " + dbName, schemaAccts, schemaXlog}
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	defer conn.Close()
	for _, q := range stmts {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("setup: %s: %w", q, err)
		}
	}
	q := []byte("INSERT INTO accounts VALUES ")
	for i := 1; i <= accounts; i++ {
		if i > 1 {
			q = append(q, ',')
		}
		id := int32(i)
		tag := accountTag(id, 0)
		q = fmt.Appendf(q, "(%d,%d,0,'%s','%s')", id, initialFunds, tag, accountChecksum(id, initialFunds, 0, tag))
	}
	if _, err := conn.ExecContext(ctx, string(q)); err != nil {
		return fmt.Errorf("setup: insert accounts: %w", err)
	}
	return nil
}

// phase is the shared state of the workers of one server lifetime.
type phase struct {
	cfg    *Config
	db     *sql.DB
	ledger *ledger
	rep    *runStats
	// killed is set just before the reaper kills the server: from then on
	// connection errors are expected.
	killed atomic.Bool
}

// runStats are counters shared by all phases.
type runStats struct {
	checkerRounds atomic.Int64
	mu            struct {
		sync.Mutex
		unexpected  []string
		nUnexpected int64
		violations  []string
		nViolations int64
	}
}

const maxListed = 50

func (r *runStats) unexpectedErr(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.mu.nUnexpected++
	if len(r.mu.unexpected) < maxListed {
		r.mu.unexpected = append(r.mu.unexpected, fmt.Sprintf(format, args...))
	}
}

func (r *runStats) violation(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.mu.nViolations++
	if len(r.mu.violations) < maxListed {
		r.mu.violations = append(r.mu.violations, fmt.Sprintf(format, args...))
	}
}

func (r *runStats) violationCount() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.mu.nViolations
}

// expectedErr reports whether err is a normal outcome: a deadlock or lock
// wait timeout, or any connection error once the kill has begun.
func (p *phase) expectedErr(err error) bool {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number == 1213 || me.Number == 1205 || (p.killed.Load() && me.Number == 1317)
	}
	return p.killed.Load() || errors.Is(err, context.Canceled)
}

// loader runs transfers until ctx ends.
func (p *phase) loader(ctx context.Context, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	for ctx.Err() == nil {
		if err := p.transfer(ctx, rng); err != nil {
			if !p.expectedErr(err) {
				p.rep.unexpectedErr("loader: %v", err)
			}
			sleepCtx(ctx, errorBackoff)
		}
	}
}

// transfer runs one transaction and records its outcome in the ledger.
func (p *phase) transfer(ctx context.Context, rng *rand.Rand) error {
	n := int32(p.cfg.Accounts)
	a := 1 + rng.Int32N(n)
	b := 1 + rng.Int32N(n-1)
	if b >= a {
		b++
	}
	t := transfer{src: a, dst: b, amount: 1 + rng.Int64N(maxAmount)}
	rollback := rng.IntN(100) < rollbackPercent
	id := p.ledger.begin(t)
	committing := false
	err := p.runTransfer(ctx, id, t, rollback, &committing)
	switch {
	case err == nil && rollback:
		p.ledger.finish(id, stateRolledBack)
	case err == nil:
		p.ledger.finish(id, stateAcked)
	case committing:
		p.ledger.finish(id, stateInDoubt)
	default:
		p.ledger.finish(id, stateAborted)
	}
	return err
}

func (p *phase) runTransfer(ctx context.Context, id int64, t transfer, rollback bool, committing *bool) error {
	conn, err := p.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return err
	}
	fail := func(err error) error {
		// Best effort: the connection may be dead; then the server rolls
		// back (or is gone).
		if _, rerr := conn.ExecContext(context.Background(), "ROLLBACK"); rerr != nil {
			// Never return a connection with an open transaction to the
			// pool: the next BEGIN would commit it implicitly.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		return err
	}
	// Lock in id order so loaders do not deadlock each other.
	lo, hi := t.src, t.dst
	if lo > hi {
		lo, hi = hi, lo
	}
	type acct struct{ balance, version int64 }
	got := map[int32]acct{}
	for _, id := range []int32{lo, hi} {
		var a acct
		q := "SELECT balance, version FROM accounts WHERE id = " + strconv.Itoa(int(id)) + " FOR UPDATE"
		if err := conn.QueryRowContext(ctx, q).Scan(&a.balance, &a.version); err != nil {
			return fail(fmt.Errorf("%s: %w", q, err))
		}
		got[id] = a
	}
	for _, u := range []struct {
		id    int32
		delta int64
	}{{t.src, -t.amount}, {t.dst, t.amount}} {
		a := got[u.id]
		bal, ver := a.balance+u.delta, a.version+1
		tag := accountTag(u.id, ver)
		q := fmt.Sprintf("UPDATE accounts SET balance = %d, version = %d, tag = '%s', checksum = '%s' WHERE id = %d",
			bal, ver, tag, accountChecksum(u.id, bal, ver, tag), u.id)
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fail(fmt.Errorf("update account %d: %w", u.id, err))
		}
	}
	q := fmt.Sprintf("INSERT INTO xlog VALUES (%d, %d, %d, %d, '%s')", id, t.src, t.dst, t.amount, xlogChecksum(id, t))
	if _, err := conn.ExecContext(ctx, q); err != nil {
		return fail(fmt.Errorf("insert xlog %d: %w", id, err))
	}
	if rollback {
		if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
			// Not committed either way: ROLLBACK or a dead connection.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
			return fmt.Errorf("rollback: %w", err)
		}
		return nil
	}
	*committing = true
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		return fmt.Errorf("commit %d: %w", id, err)
	}
	return nil
}

// checker verifies the invariants on consistent snapshots until ctx ends.
func (p *phase) checker(ctx context.Context) {
	for ctx.Err() == nil {
		if err := p.checkOnce(ctx); err != nil {
			if !p.expectedErr(err) {
				p.rep.unexpectedErr("checker: %v", err)
			}
			sleepCtx(ctx, errorBackoff)
			continue
		}
		p.rep.checkerRounds.Add(1)
		sleepCtx(ctx, checkerPause)
	}
}

// checkOnce reads the accounts and the xlog count in one REPEATABLE READ
// transaction: the total must hold, every checksum must be valid, and
// SUM(version) must be 2 × COUNT(xlog). Violations are recorded only when
// every read succeeded.
func (p *phase) checkOnce(ctx context.Context) error {
	conn, err := p.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SET SESSION transaction_isolation = 'REPEATABLE-READ'"); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "START TRANSACTION WITH CONSISTENT SNAPSHOT"); err != nil {
		return err
	}
	defer func() { _, _ = conn.ExecContext(context.Background(), "ROLLBACK") }()
	var sum, cnt, vsum int64
	if err := conn.QueryRowContext(ctx, "SELECT SUM(balance), COUNT(*), SUM(version) FROM accounts").Scan(&sum, &cnt, &vsum); err != nil {
		return fmt.Errorf("sum: %w", err)
	}
	var xlogN int64
	if err := conn.QueryRowContext(ctx, "SELECT COUNT(*) FROM xlog").Scan(&xlogN); err != nil {
		return fmt.Errorf("count xlog: %w", err)
	}
	rows, err := readAccounts(ctx, conn)
	if err != nil {
		return err
	}
	want := int64(p.cfg.Accounts) * initialFunds
	if sum != want || cnt != int64(p.cfg.Accounts) {
		p.rep.violation("checker: SUM(balance) = %d over %d rows, want %d over %d", sum, cnt, want, p.cfg.Accounts)
	}
	if vsum != 2*xlogN {
		p.rep.violation("checker: SUM(version) = %d but COUNT(xlog) = %d in one snapshot (want 2×): a partial transaction is visible", vsum, xlogN)
	}
	var rsum int64
	for _, a := range rows {
		rsum += a.balance
		if a.checksum != accountChecksum(a.id, a.balance, a.version, a.tag) {
			p.rep.violation("checker: account %d: bad checksum %q for (%d, %d, %q)", a.id, a.checksum, a.balance, a.version, a.tag)
		}
	}
	if rsum != sum {
		p.rep.violation("checker: rows sum to %d but SUM(balance) = %d in the same snapshot", rsum, sum)
	}
	return nil
}

// account is one row of the accounts table.
type account struct {
	id               int32
	balance, version int64
	tag, checksum    string
}

type queryer interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

func readAccounts(ctx context.Context, q queryer) ([]account, error) {
	rs, err := q.QueryContext(ctx, "SELECT id, balance, version, tag, checksum FROM accounts ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("read accounts: %w", err)
	}
	defer rs.Close()
	var out []account
	for rs.Next() {
		var a account
		if err := rs.Scan(&a.id, &a.balance, &a.version, &a.tag, &a.checksum); err != nil {
			return nil, fmt.Errorf("read accounts: %w", err)
		}
		out = append(out, a)
	}
	if err := rs.Err(); err != nil {
		return nil, fmt.Errorf("read accounts: %w", err)
	}
	return out, nil
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
