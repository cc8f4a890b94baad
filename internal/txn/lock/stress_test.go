package lock

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestStress runs concurrent transfers between random accounts. Half the
// workers lock in key order, half in random order (and some upgrade Shared
// locks), so deadlocks happen and must all be detected: with a generous
// timeout, any undetected cycle would surface as a timeout. Balances are
// plain ints, so the race detector checks that the locks really exclude.
func TestStress(t *testing.T) {
	const (
		workers  = 8
		accounts = 12
		initial  = 100
	)
	iters := 3000
	if testing.Short() {
		iters = 300
	}
	m := NewManager(Options{})
	balances := make([]int, accounts)
	for i := range balances {
		balances[i] = initial
	}
	keys := make([][]byte, accounts)
	for i := range keys {
		keys[i] = []byte("acct-" + strconv.Itoa(i))
	}
	var nextTxn atomic.Uint64
	var retries, cancels atomic.Int64

	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 42))
			sorted := w%2 == 0
			for it := 0; it < iters; it++ {
				for {
					txn := TxnID(nextTxn.Add(1))
					err := stressTxn(m, txn, rng, sorted, keys, balances)
					m.ReleaseAll(txn)
					if err == nil {
						break
					}
					switch {
					case err == ErrDeadlock:
						retries.Add(1)
					case errors.Is(err, context.DeadlineExceeded):
						cancels.Add(1)
					default:
						t.Errorf("txn %d: %v", txn, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()

	sum := 0
	for _, b := range balances {
		sum += b
	}
	if sum != accounts*initial {
		t.Fatalf("balances sum to %d, want %d", sum, accounts*initial)
	}
	st := m.Stats()
	if st.Timeouts != 0 {
		t.Fatalf("%d lock wait timeouts: an undetected deadlock or lost wakeup", st.Timeouts)
	}
	t.Logf("deadlock retries %d, ctx cancels %d, stats %+v", retries.Load(), cancels.Load(), st)
	checkEmpty(t, m)
}

// stressTxn runs one transaction: mostly a transfer between two accounts,
// sometimes a read-only audit under Shared locks, sometimes a transfer that
// reads under Shared first and upgrades.
func stressTxn(m *Manager, txn TxnID, rng *rand.Rand, sorted bool, keys [][]byte, balances []int) error {
	ctx := context.Background()
	if rng.IntN(20) == 0 {
		// Some statements are killed while they may be waiting.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(rng.IntN(2000))*time.Microsecond)
		defer cancel()
	}
	i, j := rng.IntN(len(keys)), rng.IntN(len(keys)-1)
	if j >= i {
		j++
	}
	if sorted && j < i {
		i, j = j, i
	}
	switch rng.IntN(6) {
	case 0: // audit
		total := 0
		for _, k := range []int{i, j} {
			if err := m.Acquire(ctx, txn, keys[k], Shared, long); err != nil {
				return err
			}
			total += balances[k]
		}
		_ = total
		return nil
	case 1: // read, then upgrade
		for _, k := range []int{i, j} {
			if err := m.Acquire(ctx, txn, keys[k], Shared, long); err != nil {
				return err
			}
		}
		if balances[i] == 0 {
			return nil
		}
		for _, k := range []int{i, j} {
			if err := m.Acquire(ctx, txn, keys[k], Exclusive, long); err != nil {
				return err
			}
		}
	default:
		for _, k := range []int{i, j} {
			if err := m.Acquire(ctx, txn, keys[k], Exclusive, long); err != nil {
				return err
			}
		}
	}
	if m.Held(txn, keys[i]) != Exclusive || m.Held(txn, keys[j]) != Exclusive {
		panic("transfer without exclusive locks")
	}
	balances[i]--
	balances[j]++
	return nil
}
