package kv

import (
	"context"
	"errors"
	"os"
	"sync"
	"time"
)

// DefaultSaveReadsEvery is how often a DB that records reads saves them
// (Options.SaveReadsEvery), so that after a crash the warmup still finds a
// recent list.
const DefaultSaveReadsEvery = 5 * time.Minute

// background is the DB's own background work: the periodic save of
// recorded reads and running warmups, stopped and waited for by Close.
type background struct {
	mu     sync.Mutex
	closed bool
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// saveMu serialises saves of the warmup file.
	saveMu sync.Mutex
}

// startRecording sets up the background work and, with
// opts.RecordReads, the read recorder and its periodic save.
func (db *DB) startRecording(opts Options) {
	db.bg.ctx, db.bg.cancel = context.WithCancel(context.Background())
	if !opts.RecordReads || opts.ReadOnly {
		return
	}
	db.rec = NewRecorder(recorderSlots(db.blockCache))
	every := opts.SaveReadsEvery
	if every == 0 {
		every = DefaultSaveReadsEvery
	}
	if every < 0 {
		return
	}
	db.bg.wg.Add(1)
	go func() {
		defer db.bg.wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-db.bg.ctx.Done():
				return
			case <-t.C:
				if err := db.SaveReads(); err != nil {
					db.opts.Logger.Infof("%v", err)
				}
			}
		}
	}()
}

// stopRecording stops the background work, waits for it and saves the
// recorded reads.
func (db *DB) stopRecording() {
	db.bg.mu.Lock()
	db.bg.closed = true
	db.bg.mu.Unlock()
	db.bg.cancel()
	db.bg.wg.Wait()
	if err := db.SaveReads(); err != nil {
		db.opts.Logger.Infof("%v", err)
	}
}

// bgStart registers background work that Close must wait for: ok is false
// once the DB is closing. The returned context ends with ctx or at Close;
// done must be called when the work ends.
func (db *DB) bgStart(ctx context.Context) (_ context.Context, done func(), ok bool) {
	db.bg.mu.Lock()
	defer db.bg.mu.Unlock()
	if db.bg.closed {
		return nil, nil, false
	}
	db.bg.wg.Add(1)
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(db.bg.ctx, cancel)
	return ctx, func() {
		stop()
		cancel()
		db.bg.wg.Done()
	}, true
}

// Recorder returns the DB's read recorder; nil unless Options.RecordReads.
func (db *DB) Recorder() *Recorder { return db.rec }

// SaveReads writes the recorded reads to the warmup file if reads were
// sampled since the last save (a no-op without Options.RecordReads).
func (db *DB) SaveReads() error {
	if db.rec == nil {
		return nil
	}
	db.bg.saveMu.Lock()
	defer db.bg.saveMu.Unlock()
	if !db.rec.changedSinceSave() {
		return nil
	}
	notes := db.rec.Notes()
	// The previous list is carried into the new one (see Recorder.Hot).
	carried, err := ReadHotReads(db.fs, db.dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		db.opts.Logger.Infof("warmup: ignoring the recorded reads: %v", err)
	}
	if err := WriteHotReads(db.fs, db.dir, db.rec.Hot(carried)); err != nil {
		return err
	}
	db.rec.markSaved(notes)
	return nil
}

// NotePoint records a point read of key if the DB records reads. The txn
// layer calls it for one read in ReadSampleEvery.
func (db *DB) NotePoint(key []byte) {
	if db.rec != nil {
		db.rec.NotePoint(key)
	}
}

// NoteScan records a scan (see Recorder.NoteScan) if the DB records reads.
func (db *DB) NoteScan(lower, upper []byte, reverse bool, rows int) {
	if db.rec != nil {
		db.rec.NoteScan(lower, upper, reverse, rows)
	}
}
