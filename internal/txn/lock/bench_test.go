package lock

import (
	"context"
	"encoding/binary"
	"sync/atomic"
	"testing"
)

// BenchmarkAcquireRelease measures the uncontended path: one transaction
// locks one fresh key and commits.
func BenchmarkAcquireRelease(b *testing.B) {
	m := NewManager(Options{})
	ctx := context.Background()
	key := make([]byte, 12)
	copy(key, "\x00\x00\x01\x00")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		binary.BigEndian.PutUint64(key[4:], uint64(i))
		txn := TxnID(i)
		if err := m.Acquire(ctx, txn, key, Exclusive, 0); err != nil {
			b.Fatal(err)
		}
		m.ReleaseAll(txn)
	}
}

// BenchmarkAcquireRelease10 locks ten keys per transaction.
func BenchmarkAcquireRelease10(b *testing.B) {
	m := NewManager(Options{})
	ctx := context.Background()
	key := make([]byte, 12)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		txn := TxnID(i)
		for k := range 10 {
			binary.BigEndian.PutUint64(key[4:], uint64(i*10+k))
			if err := m.Acquire(ctx, txn, key, Exclusive, 0); err != nil {
				b.Fatal(err)
			}
		}
		m.ReleaseAll(txn)
	}
}

// BenchmarkAcquireReleaseParallel runs the uncontended path from all Ps.
func BenchmarkAcquireReleaseParallel(b *testing.B) {
	m := NewManager(Options{})
	ctx := context.Background()
	var next atomic.Uint64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		key := make([]byte, 12)
		for pb.Next() {
			n := next.Add(1)
			binary.BigEndian.PutUint64(key[4:], n)
			if err := m.Acquire(ctx, TxnID(n), key, Exclusive, 0); err != nil {
				b.Error(err)
				return
			}
			m.ReleaseAll(TxnID(n))
		}
	})
}
