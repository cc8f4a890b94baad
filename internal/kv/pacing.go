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
	// fast is the moving average of WAL fsync latency (ns, α = 1/8).
	fast atomic.Int64
	// l0 reports the L0 sublevel count (set once the store is open; nil
	// before, which means no backlog).
	l0 atomic.Pointer[func() int]

	mu sync.Mutex
	// floor is the quiet fsync latency (ns): the lowest fast average,
	// rising by floorRise per second.
	floor   float64
	floorAt time.Time
	// compaction and flush are the token buckets of the two kinds of
	// background writes.
	compaction, flush bucket
	l0Checked         time.Time
	l0Backlog         bool
	now               func() time.Time
	sleep             func(time.Duration)
}

func newPacer() *pacer { return &pacer{now: time.Now, sleep: time.Sleep} }

// observeSync records one WAL fsync's latency.
func (p *pacer) observeSync(d time.Duration) {
	n := int64(d)
	old := p.fast.Load()
	if old == 0 {
		p.fast.Store(n)
	} else {
		p.fast.Store(old + (n-old)/8)
	}
	p.mu.Lock()
	p.updateFloorLocked()
	p.mu.Unlock()
}

// updateFloorLocked lets the floor rise with time and fall to the fast
// average.
func (p *pacer) updateFloorLocked() {
	now := p.now()
	fast := float64(p.fast.Load())
	if p.floor == 0 {
		p.floor, p.floorAt = fast, now
		return
	}
	if el := now.Sub(p.floorAt).Seconds(); el > 0 {
		p.floor *= 1 + floorRise*el
		p.floorAt = now
	}
	if fast < p.floor {
		p.floor = fast
	}
}

// pacing reports whether commits currently see slow fsyncs.
func (p *pacer) pacingLocked() bool {
	fast := float64(p.fast.Load())
	return p.floor > 0 && fast > paceFactor*p.floor
}

// backlogLocked reports (checking at most once a second) whether L0 has
// a compaction backlog.
func (p *pacer) backlogLocked(now time.Time) bool {
	if now.Sub(p.l0Checked) >= time.Second {
		p.l0Checked = now
		p.l0Backlog = false
		if f := p.l0.Load(); f != nil {
			p.l0Backlog = (*f)() >= l0Unpaced
		}
	}
	return p.l0Backlog
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
	p.mu.Lock()
	now := p.now()
	var d time.Duration
	if p.pacingLocked() && !p.backlogLocked(now) {
		d = p.compaction.take(now, n, compactionPacedRate)
	} else {
		p.compaction.fill(now)
	}
	p.mu.Unlock()
	if d > 0 {
		p.sleep(d)
	}
}

// waitFlush holds a memtable flush's write of n bytes back while pacing is
// on.
func (p *pacer) waitFlush(n int) {
	p.mu.Lock()
	now := p.now()
	var d time.Duration
	if p.pacingLocked() {
		d = p.flush.take(now, n, flushPacedRate)
	} else {
		p.flush.fill(now)
	}
	p.mu.Unlock()
	if d > 0 {
		p.sleep(d)
	}
}
