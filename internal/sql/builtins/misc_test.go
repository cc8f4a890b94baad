package builtins

import (
	"context"
	"testing"
	"time"

	"vitess.io/vitess/go/sqltypes"
)

func TestMySQLRand(t *testing.T) {
	// Values from MySQL/MariaDB: SELECT RAND(1), RAND(0), RAND(3).
	for seed, want := range map[int64]float64{1: 0.40540353712197724, 0: 0.15522042769493574, 3: 0.9057697559760601} {
		if got := newMySQLRand(seed).next(); got != want {
			t.Errorf("RAND(%d) = %v, want %v", seed, got, want)
		}
	}
	// A call site continues its sequence within one execution.
	st := &State{}
	site := make([]sqltypes.Value, 1)
	a := seededRand(st, &site[0], 1)
	b := seededRand(st, &site[0], 1)
	if a != 0.40540353712197724 || b == a {
		t.Errorf("RAND(1) sequence = %v, %v", a, b)
	}
	other := make([]sqltypes.Value, 1)
	if c := seededRand(st, &other[0], 1); c != a {
		t.Errorf("second RAND(1) call site = %v, want %v", c, a)
	}
}

func TestSleepCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	env := &testEnv{ctx: ctx}
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	start := time.Now()
	v, err := fnSleep(env, []sqltypes.Value{sqltypes.NewInt64(60)})
	if err != nil || v.ToString() != "1" || time.Since(start) > 5*time.Second {
		t.Errorf("SLEEP interrupted = %v, %v after %v", v, err, time.Since(start))
	}
	v, _ = fnSleep(&testEnv{}, []sqltypes.Value{sqltypes.NewFloat64(0.01)})
	if v.ToString() != "0" {
		t.Errorf("SLEEP(0.01) = %v, want 0", v)
	}
}

func TestUUIDShort(t *testing.T) {
	a, _ := fnUUIDShort(&testEnv{}, nil)
	b, _ := fnUUIDShort(&testEnv{}, nil)
	x, _ := a.ToUint64()
	y, _ := b.ToUint64()
	if y != x+1 || x>>56 != 1 {
		t.Errorf("UUID_SHORT = %d, %d", x, y)
	}
}
