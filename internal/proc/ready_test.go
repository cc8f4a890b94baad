package proc

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func TestWaitReadyProcessExits(t *testing.T) {
	p := startHelper(t, "exit", "4")
	err := p.WaitReady(context.Background(), "127.0.0.1:1", 20*time.Second, nil)
	if err == nil || !strings.Contains(err.Error(), "exited before it was ready: exit status 4") {
		t.Errorf("WaitReady() = %v", err)
	}
}

func TestWaitReadyTimesOut(t *testing.T) {
	p := startHelper(t, "silent")
	port, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + itoa(port)
	err = p.WaitReady(context.Background(), addr, 300*time.Millisecond, nil)
	if err == nil || !strings.Contains(err.Error(), "not ready on "+addr+" within 300ms") {
		t.Errorf("WaitReady() = %v", err)
	}
}

func TestWaitReadyContext(t *testing.T) {
	p := startHelper(t, "silent")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := p.WaitReady(ctx, "127.0.0.1:1", time.Minute, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("WaitReady() = %v, want the context's error", err)
	}
}

func TestWaitReadyRunsCheck(t *testing.T) {
	p, addr := serveHelper(t)
	calls := 0
	check := func(ctx context.Context) error {
		if _, ok := ctx.Deadline(); !ok {
			t.Error("check's context has no deadline")
		}
		if calls++; calls < 4 {
			return errors.New("not yet")
		}
		return nil
	}
	if err := p.WaitReady(context.Background(), addr, 20*time.Second, check); err != nil {
		t.Fatal(err)
	}
	if calls != 4 {
		t.Errorf("check ran %d times, want 4", calls)
	}
	failing := func(context.Context) error { return errors.New("still starting") }
	err := p.WaitReady(context.Background(), addr, 200*time.Millisecond, failing)
	if err == nil || !strings.Contains(err.Error(), "still starting") {
		t.Errorf("WaitReady() = %v, want the check's last error", err)
	}
}

func TestSelectOne(t *testing.T) {
	for dsn, want := range map[string]string{"1": "", "2": "SELECT 1 returned 2", "fail": "SELECT 1: fake: fail"} {
		err := SelectOne("proctest", dsn)(context.Background())
		if (want == "" && err != nil) || (want != "" && (err == nil || err.Error() != want)) {
			t.Errorf("SelectOne(%q) = %v, want %q", dsn, err, want)
		}
	}
	if err := SelectOne("nosuchdriver", "")(context.Background()); err == nil {
		t.Error("SelectOne with an unknown driver succeeded")
	}
}

// fakeDriver answers every query with one row holding its DSN (or fails
// for DSN "fail").
type fakeDriver struct{}

func init() { sql.Register("proctest", fakeDriver{}) }

func (fakeDriver) Open(dsn string) (driver.Conn, error) { return fakeConn(dsn), nil }

type fakeConn string

func (c fakeConn) Prepare(string) (driver.Stmt, error) { return nil, errors.New("fake: no prepare") }
func (c fakeConn) Close() error                        { return nil }
func (c fakeConn) Begin() (driver.Tx, error)           { return nil, errors.New("fake: no tx") }

func (c fakeConn) QueryContext(context.Context, string, []driver.NamedValue) (driver.Rows, error) {
	if c == "fail" {
		return nil, errors.New("fake: fail")
	}
	return &fakeRows{v: string(c)}, nil
}

type fakeRows struct {
	v    string
	done bool
}

func (r *fakeRows) Columns() []string { return []string{"1"} }
func (r *fakeRows) Close() error      { return nil }
func (r *fakeRows) Next(dest []driver.Value) error {
	if r.done {
		return io.EOF
	}
	r.done = true
	dest[0] = r.v
	return nil
}
