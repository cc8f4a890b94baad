package stress

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/testserver"
)

func TestParseInterval(t *testing.T) {
	for _, tc := range []struct {
		in     string
		lo, hi time.Duration
		err    bool
	}{
		{"2s-5s", 2 * time.Second, 5 * time.Second, false},
		{"3s", 3 * time.Second, 3 * time.Second, false},
		{" 500ms - 1s ", 500 * time.Millisecond, time.Second, false},
		{"5s-2s", 0, 0, true},
		{"0s", 0, 0, true},
		{"x", 0, 0, true},
		{"1s-", 0, 0, true},
	} {
		lo, hi, err := ParseInterval(tc.in)
		if (err != nil) != tc.err || lo != tc.lo || hi != tc.hi {
			t.Errorf("ParseInterval(%q) = %v, %v, %v", tc.in, lo, hi, err)
		}
	}
}

// fixture is a live server with the stress schema and a ledger holding
// three acknowledged transfers that were really committed.
type fixture struct {
	db     *sql.DB
	ledger *ledger
	stats  *runStats
	ct     *checkTableState
}

const fixtureAccounts = 5

func newFixture(t *testing.T) *fixture {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a server")
	}
	srv := testserver.Start(t, testserver.Options{})
	ctx := context.Background()
	root := srv.DB(t, "")
	if err := setupSchema(ctx, root, fixtureAccounts); err != nil {
		t.Fatal(err)
	}
	f := &fixture{db: srv.DB(t, dbName), ledger: &ledger{}, stats: &runStats{}, ct: &checkTableState{}}
	f.db.SetMaxOpenConns(1) // one session: the fixture's direct writes are sequential
	p := &phase{cfg: &Config{Accounts: fixtureAccounts}, db: f.db, ledger: f.ledger, rep: f.stats}
	for _, tr := range []transfer{{1, 2, 10}, {2, 3, 7}, {5, 1, 3}} {
		id := f.ledger.begin(tr)
		committing := false
		if err := p.runTransfer(ctx, id, tr, false, &committing); err != nil {
			t.Fatal(err)
		}
		f.ledger.finish(id, stateAcked)
	}
	return f
}

func (f *fixture) verify(t *testing.T) []string {
	t.Helper()
	if _, err := verify(context.Background(), f.db, fixtureAccounts, f.ledger, f.stats, f.ct, "test"); err != nil {
		t.Fatal(err)
	}
	f.stats.mu.Lock()
	defer f.stats.mu.Unlock()
	return f.stats.mu.violations
}

func (f *fixture) exec(t *testing.T, q string) {
	t.Helper()
	if _, err := f.db.Exec(q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func wantViolation(t *testing.T, got []string, substr string) {
	t.Helper()
	for _, v := range got {
		if strings.Contains(v, substr) {
			return
		}
	}
	t.Fatalf("no violation containing %q in %q", substr, got)
}

// TestVerify checks that the verifier passes a consistent database and
// catches each kind of violation the crash loop looks for.
func TestVerify(t *testing.T) {
	f := newFixture(t)
	if v := f.verify(t); len(v) != 0 {
		t.Fatalf("consistent database: violations %q", v)
	}
	p := &phase{cfg: &Config{Accounts: fixtureAccounts}, db: f.db, ledger: f.ledger, rep: f.stats}
	if err := p.checkOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := f.stats.violationCount(); n != 0 {
		t.Fatalf("checker on a consistent database: %d violations", n)
	}

	// In-doubt transactions are resolved by what the server shows.
	in := f.ledger.begin(transfer{3, 4, 1})
	f.ledger.finish(in, stateInDoubt)
	out := f.ledger.begin(transfer{4, 5, 1})
	committing := false
	if err := p.runTransfer(context.Background(), out, transfer{4, 5, 1}, false, &committing); err != nil {
		t.Fatal(err)
	}
	f.ledger.finish(out, stateInDoubt)
	if v := f.verify(t); len(v) != 0 {
		t.Fatalf("in-doubt: violations %q", v)
	}
	if r, _ := f.ledger.get(in); r.state != stateAborted {
		t.Fatalf("absent in-doubt transaction resolved to %v", r.state)
	}
	if r, _ := f.ledger.get(out); r.state != stateResolved {
		t.Fatalf("present in-doubt transaction resolved to %v", r.state)
	}

	// A lost acknowledged transaction.
	lost := f.ledger.begin(transfer{1, 3, 5})
	f.ledger.finish(lost, stateAcked)
	wantViolation(t, f.verify(t), "is lost")
	f.ledger.finish(lost, stateAborted)

	// A visible transaction that never committed (its xlog row alone).
	ghost := f.ledger.begin(transfer{2, 4, 6})
	f.ledger.finish(ghost, stateAborted)
	f.exec(t, "INSERT INTO xlog VALUES ("+itoa(ghost)+", 2, 4, 6, '"+xlogChecksum(ghost, transfer{2, 4, 6})+"')")
	got := f.verify(t)
	wantViolation(t, got, "(aborted) is visible")
	wantViolation(t, got, "the xlog rows present imply") // balances do not reflect it
	f.exec(t, "DELETE FROM xlog WHERE txid = "+itoa(ghost))

	// A partial transaction: one side of a transfer applied, checksum kept valid.
	f.stats.mu.violations, f.stats.mu.nViolations = nil, 0
	tag := accountTag(1, 9)
	f.exec(t, "UPDATE accounts SET balance = balance - 1, version = 9, tag = '"+tag+"', checksum = '' WHERE id = 1")
	var bal int64
	if err := f.db.QueryRow("SELECT balance FROM accounts WHERE id = 1").Scan(&bal); err != nil {
		t.Fatal(err)
	}
	f.exec(t, "UPDATE accounts SET checksum = '"+accountChecksum(1, bal, 9, tag)+"' WHERE id = 1")
	got = f.verify(t)
	wantViolation(t, got, "account 1 has balance")
	wantViolation(t, got, "SUM(balance) =")
	if err := p.checkOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	if f.stats.violationCount() <= int64(len(got)) {
		t.Fatal("checker missed the partial transaction")
	}

	// A row whose checksum does not match its content.
	f.exec(t, "UPDATE accounts SET checksum = 'deadbeef' WHERE id = 2")
	wantViolation(t, f.verify(t), "account 2: bad checksum")
}

func itoa(i int64) string { return strconv.FormatInt(i, 10) }
