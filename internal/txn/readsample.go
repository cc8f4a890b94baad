package txn

import "github.com/strata-db/strata/internal/kv"

// Read sampling for warm restarts: one store read in kv.ReadSampleEvery of
// every transaction is passed to the store's recorder (kv.Recorder), which
// keeps the most recent ones for the next start's warmup. A countdown per
// transaction decides — no shared counter, no random number per read — and
// it starts at a phase drawn from the transaction id, so transactions of a
// single read (autocommit point selects) are sampled one in
// kv.ReadSampleEvery as well. Reads a transaction answers from its own
// writes or its locked-read memory touch no store block and are not
// counted.

// firstSample is the countdown of a new transaction: 1..kv.ReadSampleEvery,
// spread over consecutive ids by a multiplicative hash.
func firstSample(id uint64) uint32 {
	return uint32((id*0x9e3779b97f4a7c15)>>32)%kv.ReadSampleEvery + 1
}

// sampleRead counts a store read and reports whether it is sampled.
func (t *Txn) sampleRead() bool {
	t.sampleIn--
	if t.sampleIn != 0 {
		return false
	}
	t.sampleIn = kv.ReadSampleEvery
	return true
}

// notePoint counts a point read of key, recording it when sampled.
func (t *Txn) notePoint(key []byte) {
	if t.sampleRead() {
		t.db.kv.NotePoint(key)
	}
}

// noteScan records a sampled iterator's scan as it closes: from the bound
// it started at, over the keys it visited (the other bound is not kept,
// which keeps the iterator in its allocation size class; the row count
// ends a replay).
func (i *Iterator) noteScan(s kv.StepStats) {
	if i.reverse {
		i.db.kv.NoteScan(nil, i.start, true, s.Visible)
	} else {
		i.db.kv.NoteScan(i.start, nil, false, s.Visible)
	}
}
