package kv

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// Warm restart (InnoDB's buffer-pool load).
//
// Warmup fills the block cache after a start, in two passes, from the
// coldest-start costs down:
//
//  1. Every table file, upper levels first: one prefix seek at the file's
//     smallest key loads what every read of that file pays first — its
//     top-level index block, and above the bottom level its bloom filter
//     (reads skip L6 filters, so those are left out as reads leave them).
//  2. The recorded hot reads (Recorder, <datadir>/warmup), hottest first:
//     each is replayed as it ran — a point read by a prefix seek, a scan
//     from the same end over as many rows — so the index partitions and
//     data blocks it loaded are loaded again.
//
// It reads through ordinary Pebble iterators, so what it loads is exactly
// what the same reads would load, and it stops at the first of: its byte
// budget (bytes read from disk, by default three quarters of the block
// cache, so it never evicts its own earlier, hotter blocks), its time
// budget, cancellation or Close. It paces itself to Rate bytes per second,
// and while the foreground reads a lot (samples of the Recorder) it
// waits: busy sessions warm the cache with what they need anyway.

// Warmup defaults.
const (
	defaultWarmupTime = time.Minute
	defaultWarmupRate = 64 << 20
	// defaultBusyNotes: foreground reads sampled per second above which the
	// warmup waits (×ReadSampleEvery ≈ 1,600 reads/s).
	defaultBusyNotes = 200
	// busyCheckEvery is how often the warmup looks at foreground activity.
	busyCheckEvery = 100 * time.Millisecond
)

// WarmupOptions bound a Warmup. Zero values take the defaults.
type WarmupOptions struct {
	// Reads are the reads to replay, hottest first. Nil reads them from
	// the warmup file, as Open found it (a missing or damaged file is
	// logged and only the first pass runs).
	Reads []HotRead
	// Budget is the most bytes to read from disk. Default: three quarters
	// of the block cache's share of the cache.
	Budget int64
	// MaxTime bounds the warmup's duration. Default 1 minute.
	MaxTime time.Duration
	// Rate is the most bytes per second to read from disk. Default 64 MiB/s.
	Rate int64
	// BusyNotes is the rate of sampled foreground reads (per second) above
	// which the warmup waits. Default 200 (about 1,600 store reads/s); negative:
	// never wait.
	BusyNotes int
	// SkipFiles skips the first pass (index and filter blocks of every
	// table file).
	SkipFiles bool
}

// WarmupStats say what a Warmup did.
type WarmupStats struct {
	// Files is the number of table files whose index (and filter) blocks
	// were loaded; Reads the recorded reads replayed, of Recorded.
	Files, Reads, Recorded int
	// Bytes were read from disk into the cache; CachedBytes were found
	// there already.
	Bytes, CachedBytes int64
	// Waited is the time spent paused for foreground activity or the rate.
	Elapsed, Waited time.Duration
	// Stopped says why it ended: "done", "budget", "time", "canceled" or
	// "error" (a failed read, also returned).
	Stopped string
}

// errWarmupStop ends a warmup early; warmer.stopped says why.
var errWarmupStop = errors.New("warmup stopped")

// Warmup loads the table files' index and filter blocks and replays the
// recorded hot reads into the block cache, within o's budgets; see above.
// It runs in the caller's goroutine (the server starts it in the
// background once it accepts connections), returns early when ctx is
// canceled or the DB closes (Close waits for it), and logs what it did.
// Its error is one of reading the store; budgets are not errors.
func (db *DB) Warmup(ctx context.Context, o WarmupOptions) (WarmupStats, error) {
	ctx, done, ok := db.bgStart(ctx)
	if !ok {
		return WarmupStats{Stopped: "canceled"}, nil
	}
	defer done()
	w := db.newWarmer(ctx, o)
	err := w.run()
	w.stats.Elapsed = time.Since(w.start)
	s := &w.stats
	db.opts.Logger.Infof("warmup %s: %d table files, %d of %d recorded reads, %d MiB read from disk (%d MiB already cached) in %s (waited %s)",
		s.Stopped, s.Files, s.Reads, s.Recorded, s.Bytes>>20, s.CachedBytes>>20,
		s.Elapsed.Round(time.Millisecond), s.Waited.Round(time.Millisecond))
	return w.stats, err
}

// warmer is one Warmup's state.
type warmer struct {
	db       *DB
	ctx      context.Context
	o        WarmupOptions
	start    time.Time
	deadline time.Time
	stats    WarmupStats
	// readCap bounds the disk bytes of one replayed read, so a recorded
	// full scan cannot take the whole budget.
	readCap int64
	// foreground activity at the last check
	lastCheck time.Time
	lastNotes int64
	isBusy    bool
}

func (db *DB) newWarmer(ctx context.Context, o WarmupOptions) *warmer {
	if o.Budget <= 0 {
		o.Budget = db.blockCache * 3 / 4
	}
	if o.MaxTime <= 0 {
		o.MaxTime = defaultWarmupTime
	}
	if o.Rate <= 0 {
		o.Rate = defaultWarmupRate
	}
	if o.BusyNotes == 0 {
		o.BusyNotes = defaultBusyNotes
	}
	now := time.Now()
	return &warmer{
		db: db, ctx: ctx, o: o, start: now, deadline: now.Add(o.MaxTime),
		readCap: max(o.Budget/16, 1<<20), lastCheck: now, lastNotes: db.rec.notesOrZero(),
		// Look at the foreground for one period before the first read.
		isBusy: true,
	}
}

func (w *warmer) run() error {
	if w.o.Reads == nil {
		reads, err := ReadHotReads(w.db.fs, w.db.dir)
		switch {
		case errors.Is(err, os.ErrNotExist):
			w.db.opts.Logger.Infof("warmup: no recorded reads (%s not found)", WarmupFile)
		case err != nil:
			w.db.opts.Logger.Infof("warmup: ignoring the recorded reads: %v", err)
		}
		w.o.Reads = reads
	}
	w.stats.Recorded = len(w.o.Reads)
	err := w.warm()
	if errors.Is(err, errWarmupStop) {
		return nil
	}
	w.stats.Stopped = "done"
	if err != nil {
		w.stats.Stopped = "error"
	}
	return err
}

func (w *warmer) warm() error {
	if !w.o.SkipFiles {
		levels, err := w.db.pdb.SSTables()
		if err != nil {
			return opError("warmup: list table files", err)
		}
		for _, files := range levels {
			for i := range files {
				if err := w.file(files[i].Smallest.UserKey); err != nil {
					return err
				}
			}
		}
	}
	for i := range w.o.Reads {
		if err := w.replay(&w.o.Reads[i]); err != nil {
			return err
		}
		w.stats.Reads++
	}
	return nil
}

// file loads the blocks a prefix seek at key reads in every level: the
// filter (above L6) and index of the file holding key, and one data block.
func (w *warmer) file(key []byte) error {
	if err := w.check(); err != nil {
		return err
	}
	it, err := w.db.pdb.NewIter(nil)
	if err != nil {
		return opError("warmup: new iterator", err)
	}
	if it.SeekPrefixGE(key) {
		_, _ = it.ValueAndErr()
	}
	w.stats.Files++
	return w.closeIter(it)
}

// replay repeats a recorded read.
func (w *warmer) replay(h *HotRead) error {
	if err := w.check(); err != nil {
		return err
	}
	opts := &pebble.IterOptions{LowerBound: h.Lower, UpperBound: h.Upper}
	if h.Kind == ReadPoint {
		opts = nil
	}
	it, err := w.db.pdb.NewIter(opts)
	if err != nil {
		return opError("warmup: new iterator", err)
	}
	switch h.Kind {
	case ReadPoint:
		if it.SeekPrefixGE(h.Lower) {
			_, _ = it.ValueAndErr()
		}
	case ReadForward, ReadReverse:
		rev := h.Kind == ReadReverse
		var valid bool
		if rev {
			valid = it.Last()
		} else {
			valid = it.First()
		}
		for n := uint32(0); valid && n < h.Rows; n++ {
			if _, err := it.ValueAndErr(); err != nil {
				break
			}
			if n%256 == 255 {
				if w.iterDisk(it) >= w.readCap {
					break
				}
				if err := w.check(); err != nil {
					_ = w.closeIter(it)
					return err
				}
			}
			if rev {
				valid = it.Prev()
			} else {
				valid = it.Next()
			}
		}
	}
	return w.closeIter(it)
}

// iterDisk is the bytes it read from disk so far.
func (w *warmer) iterDisk(it *pebble.Iterator) int64 {
	s := it.Stats().InternalStats
	return int64(s.BlockBytes - s.BlockBytesInCache)
}

// closeIter adds the iterator's block reads to the stats and closes it.
func (w *warmer) closeIter(it *pebble.Iterator) error {
	s := it.Stats().InternalStats
	w.stats.Bytes += int64(s.BlockBytes - s.BlockBytesInCache)
	w.stats.CachedBytes += int64(s.BlockBytesInCache)
	if err := it.Close(); err != nil {
		return opError("warmup: read", err)
	}
	return nil
}

// check returns errWarmupStop (with stats.Stopped set) when a budget is
// spent or the warmup is canceled, after waiting out the rate limit and
// busy foreground periods.
func (w *warmer) check() error {
	for {
		switch {
		case w.ctx.Err() != nil:
			return w.stop("canceled")
		case w.stats.Bytes >= w.o.Budget:
			return w.stop("budget")
		}
		now := time.Now()
		if !now.Before(w.deadline) {
			return w.stop("time")
		}
		// Rate: the bytes read so far may have taken this long at least.
		wait := time.Duration(float64(w.stats.Bytes)/float64(w.o.Rate)*float64(time.Second)) - now.Sub(w.start)
		if wait <= 0 && w.busy(now) {
			wait = busyCheckEvery
		}
		if wait <= 0 {
			return nil
		}
		wait = min(wait, w.deadline.Sub(now))
		t := time.NewTimer(wait)
		select {
		case <-w.ctx.Done():
			t.Stop()
		case <-t.C:
		}
		w.stats.Waited += time.Since(now)
	}
}

// busy reports whether the foreground read more than BusyNotes samples per
// second over the last period of at least busyCheckEvery.
func (w *warmer) busy(now time.Time) bool {
	if w.o.BusyNotes < 0 || w.db.rec == nil {
		return false
	}
	if dt := now.Sub(w.lastCheck); dt >= busyCheckEvery {
		notes := w.db.rec.Notes()
		rate := float64(notes-w.lastNotes) / dt.Seconds()
		w.lastCheck, w.lastNotes = now, notes
		w.isBusy = rate > float64(w.o.BusyNotes)
	}
	return w.isBusy
}

func (w *warmer) stop(reason string) error {
	w.stats.Stopped = reason
	return errWarmupStop
}

// notesOrZero is Notes of a possibly nil recorder.
func (r *Recorder) notesOrZero() int64 {
	if r == nil {
		return 0
	}
	return r.Notes()
}
