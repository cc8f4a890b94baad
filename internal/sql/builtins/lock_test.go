package builtins

import (
	"context"
	"testing"
	"time"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
)

func TestUserLocks(t *testing.T) {
	ul := NewUserLocks()
	ctx := context.Background()
	if r, _ := ul.acquire(ctx, "a", 1, 0); r != 1 {
		t.Fatalf("acquire free = %d", r)
	}
	if r, _ := ul.acquire(ctx, "a", 1, 0); r != 1 {
		t.Fatalf("re-entrant acquire = %d", r)
	}
	if r, _ := ul.acquire(ctx, "a", 2, 10*time.Millisecond); r != 0 {
		t.Fatalf("acquire held = %d, want timeout", r)
	}
	if r := ul.release("a", 2); r != 0 {
		t.Fatalf("release by other = %d", r)
	}
	if r := ul.release("a", 1); r != 1 {
		t.Fatalf("release = %d", r)
	}
	if id, used := ul.owner("a"); !used || id != 1 {
		t.Fatalf("owner after one release = %d, %v", id, used)
	}
	// A waiter gets the lock when it is freed.
	done := make(chan int)
	go func() {
		r, _ := ul.acquire(ctx, "a", 2, -1)
		done <- r
	}()
	time.Sleep(10 * time.Millisecond)
	if r := ul.release("a", 1); r != 1 {
		t.Fatalf("release = %d", r)
	}
	if r := <-done; r != 1 {
		t.Fatalf("waiter got %d", r)
	}
	if r := ul.release("b", 1); r != -1 {
		t.Fatalf("release unheld = %d", r)
	}
	// Deadlock: 2 holds a and waits for b; 1 holds b and asks for a.
	if r, _ := ul.acquire(ctx, "b", 1, 0); r != 1 {
		t.Fatal("acquire b")
	}
	go func() {
		r, _ := ul.acquire(ctx, "b", 2, time.Second)
		done <- r
	}()
	time.Sleep(10 * time.Millisecond)
	_, err := ul.acquire(ctx, "a", 1, time.Second)
	if se, ok := err.(*sqlerror.SQLError); !ok || se.Num != erUserLockDeadlock {
		t.Fatalf("deadlock acquire err = %v", err)
	}
	if n := ul.ReleaseAll(1); n != 1 {
		t.Fatalf("releaseAll = %d", n)
	}
	if r := <-done; r != 1 {
		t.Fatalf("waiter for b got %d", r)
	}
	if n := ul.ReleaseAll(2); n != 2 {
		t.Fatalf("releaseAll(2) = %d", n)
	}
	// A cancelled wait reports interruption.
	ul.acquire(ctx, "c", 1, 0)
	cctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	if r, _ := ul.acquire(cctx, "c", 2, -1); r != -1 {
		t.Fatalf("cancelled wait = %d", r)
	}
}

func TestLockName(t *testing.T) {
	if k, err := lockName(sqltypes.NewVarChar("MyLock")); err != nil || k != "mylock" {
		t.Errorf("lockName = %q, %v", k, err)
	}
	for _, v := range []sqltypes.Value{sqltypes.NULL, sqltypes.NewVarChar(""), sqltypes.NewVarChar(string(make([]byte, 65)))} {
		if _, err := lockName(v); err == nil {
			t.Errorf("lockName(%v) accepted", v)
		}
	}
	if d := lockTimeout(sqltypes.NewInt64(-1)); d >= 0 {
		t.Errorf("lockTimeout(-1) = %v", d)
	}
	if d := lockTimeout(sqltypes.MakeTrusted(sqltypes.Decimal, []byte("0.5"))); d != 500*time.Millisecond {
		t.Errorf("lockTimeout(0.5) = %v", d)
	}
}
