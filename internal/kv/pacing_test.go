package kv

import (
	"testing"
	"time"
)

// fakePacer is a pacer on a fake clock that records its sleeps (and
// advances the clock by them).
func fakePacer() (*pacer, *time.Time, *time.Duration) {
	now := time.Unix(1000, 0)
	var slept time.Duration
	p := newPacer()
	p.now = func() time.Time { return now }
	p.sleep = func(d time.Duration) { slept += d; now = now.Add(d) }
	return p, &now, &slept
}

func TestPacerQuietDiskWritesAtFullSpeed(t *testing.T) {
	p, now, slept := fakePacer()
	for range 1000 {
		p.observeSync(200 * time.Microsecond)
		*now = now.Add(time.Millisecond)
	}
	for range 100 {
		p.waitCompaction(1 << 20)
		p.waitFlush(1 << 20)
	}
	if *slept != 0 {
		t.Fatalf("slept %v with steady fsync latency", *slept)
	}
}

func TestPacerSlowFsyncsPaceBackgroundWrites(t *testing.T) {
	p, now, slept := fakePacer()
	for range 1000 {
		p.observeSync(200 * time.Microsecond)
		*now = now.Add(time.Millisecond)
	}
	// The disk gets busy: fsyncs take 5× as long.
	for range 64 {
		p.observeSync(time.Millisecond)
		*now = now.Add(time.Millisecond)
	}
	// 17 MiB of compaction output at 8 MiB/s after a 1 MiB burst: 2 s.
	for range 17 {
		p.waitCompaction(1 << 20)
	}
	if d := *slept; d < 1900*time.Millisecond || d > 2100*time.Millisecond {
		t.Fatalf("17 MiB of compaction writes under slow fsyncs slept %v, want ~2s (8 MiB/s)", d)
	}
	// Flushes get four times the rate: 33 MiB in ~1 s.
	*slept = 0
	for range 33 {
		p.waitFlush(1 << 20)
	}
	if d := *slept; d < 900*time.Millisecond || d > 1100*time.Millisecond {
		t.Fatalf("33 MiB of flush writes under slow fsyncs slept %v, want ~1s (32 MiB/s)", d)
	}

	// An L0 backlog lifts the pacing of compactions.
	sub := l0Unpaced
	l0 := func() int { return sub }
	p.l0.Store(&l0)
	*now = now.Add(2 * time.Second)
	*slept = 0
	for range 17 {
		p.waitCompaction(1 << 20)
	}
	if *slept != 0 {
		t.Fatalf("compactions slept %v with %d L0 sublevels", *slept, sub)
	}

	// Fsyncs back to normal: no pacing.
	for range 64 {
		p.observeSync(200 * time.Microsecond)
		*now = now.Add(time.Millisecond)
	}
	sub = 0
	*now = now.Add(2 * time.Second)
	*slept = 0
	for range 17 {
		p.waitCompaction(1 << 20)
	}
	if *slept != 0 {
		t.Fatalf("compactions slept %v after fsync latency recovered", *slept)
	}
}

func TestPacerFloorRisesForADiskSlowForGood(t *testing.T) {
	p, now, slept := fakePacer()
	for range 100 {
		p.observeSync(200 * time.Microsecond)
		*now = now.Add(time.Millisecond)
	}
	// Latency triples for good; after a few minutes the floor has risen to
	// it and background writes run at full speed again.
	for range 300 {
		p.observeSync(600 * time.Microsecond)
		*now = now.Add(time.Second)
	}
	for range 17 {
		p.waitCompaction(1 << 20)
	}
	if *slept != 0 {
		t.Fatalf("still pacing (slept %v) five minutes into a permanently slower disk", *slept)
	}
}
