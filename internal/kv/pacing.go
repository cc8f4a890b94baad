package kv

import (
	"sync"
	"sync/atomic"
	"time"
)

// Background writes paced by commit latency.
//
// On a shared or noisy disk a flush or compaction writes tens of MiB in a
// burst; its write-back shares the device queue with the WAL fdatasync
// every durable commit waits for, so commit latency jumps while it runs.
// Pebble has no I/O rate limiter, so strata paces at the file layer: it
// watches the WAL's fsync latency (a fast moving average against a slowly
// rising floor of it, the disk's quiet latency) and, while commits see
// their fsyncs take more than twice the quiet latency, holds compaction
// writes to compactionPacedRate and flush writes to flushPacedRate. A
// compaction backlog lifts the pacing: with l0Unpaced or more L0 sublevels
// (reads and, at 20, writes would suffer more than commits gain) it writes
// at full speed again; flushes always get four times the compaction rate, so
// the memtables never fill waiting for them.
const (
	compactionPacedRate = 8 << 20  // bytes/s
	flushPacedRate      = 32 << 20 // bytes/s
	pacedBurst          = 1 << 20  // bytes written without waiting
	l0Unpaced           = 8        // L0 sublevels that lift the pacing
	// paceFactor: pacing starts when the fast average exceeds the floor
	// by this factor.
	paceFactor = 2
	// floorRise is how fast the floor creeps up per second, so a disk that
	// became slower for good stops being paced after a minute or two.
	floorRise = 0.02
)

// pacer tracks WAL fsync latency and paces background writes.
type pacer struct {
	// l0 reports the L0 sublevel count (set once the store is open; nil
	// before, which means no backlog).
	l0 atomic.Pointer[func() int]
	// l0Checked (Unix ns) and l0Backlog cache the backlog check, made at
	// most once a second and outside mu: Pebble's Metrics takes its own
	// lock, and mu is taken by every WAL fsync.
	l0Checked atomic.Int64
	l0Backlog atomic.Bool

	mu sync.Mutex
	// fast is the moving average of WAL fsync latency (ns, α = 1/8).
	fast float64
	// floor is the quiet fsync latency (ns): the lowest fast average,
	// rising by floorRise per second.
	floor   float64
	floorAt time.Time
	// compaction and flush are the token buckets of the two kinds of
	// background writes.
	compaction, flush bucket
	now               func() time.Time
	sleep             func(time.Duration)
}

func newPacer() *pacer { return &pacer{now: time.Now, sleep: time.Sleep} }

// observeSync records one WAL fsync's latency: it moves the fast average,
// lets the floor rise with time and fall to the fast average.
func (p *pacer) observeSync(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if p.fast == 0 {
		p.fast, p.floor, p.floorAt = float64(d), float64(d), now
		return
	}
	p.fast += (float64(d) - p.fast) / 8
	if el := now.Sub(p.floorAt).Seconds(); el > 0 {
		p.floor *= 1 + floorRise*el
		p.floorAt = now
	}
	p.floor = min(p.floor, p.fast)
}

// pacingLocked reports whether commits currently see slow fsyncs.
func (p *pacer) pacingLocked() bool {
	return p.floor > 0 && p.fast > paceFactor*p.floor
}

// backlog reports (checking at most once a second) whether L0 has a
// compaction backlog.
func (p *pacer) backlog(now time.Time) bool {
	last := p.l0Checked.Load()
	if now.UnixNano()-last >= int64(time.Second) && p.l0Checked.CompareAndSwap(last, now.UnixNano()) {
		if f := p.l0.Load(); f != nil {
			p.l0Backlog.Store((*f)() >= l0Unpaced)
		}
	}
	return p.l0Backlog.Load()
}

// bucket is a token bucket of bytes.
type bucket struct {
	tokens float64
	at     time.Time
}

// take takes n bytes at rate bytes/s and returns how long to wait for them.
func (b *bucket) take(now time.Time, n int, rate float64) time.Duration {
	b.tokens = min(pacedBurst, b.tokens+now.Sub(b.at).Seconds()*rate)
	b.at = now
	b.tokens -= float64(n)
	if b.tokens >= 0 {
		return 0
	}
	return time.Duration(-b.tokens / rate * float64(time.Second))
}

// fill makes the whole burst available (pacing off).
func (b *bucket) fill(now time.Time) { b.tokens, b.at = pacedBurst, now }

// waitCompaction holds a compaction's write of n bytes back while pacing is
// on and L0 has no backlog.
func (p *pacer) waitCompaction(n int) {
	p.wait(&p.compaction, n, compactionPacedRate, p.backlog(p.now()))
}

// waitFlush holds a memtable flush's write of n bytes back while pacing is
// on.
func (p *pacer) waitFlush(n int) { p.wait(&p.flush, n, flushPacedRate, false) }

// wait takes n bytes from b at rate while pacing is on and not lifted.
func (p *pacer) wait(b *bucket, n int, rate float64, lifted bool) {
	p.mu.Lock()
	now := p.now()
	var d time.Duration
	if p.pacingLocked() && !lifted {
		d = b.take(now, n, rate)
	} else {
		b.fill(now)
	}
	p.mu.Unlock()
	if d > 0 {
		p.sleep(d)
	}
}
