package txn

// The write buffer's arena. Every buffered write needs its key and value
// bytes and an item; allocating them one entry at a time made two heap
// objects per row written (a TPC-C new-order writes ~25 entries). The
// first writes of a transaction are carved from chunks instead: bytes from
// writeChunk-sized slabs, items from slices of itemChunk, one allocation
// per chunk. Carved memory is never reused or moved while the transaction
// lives (entries point into it, and readers may hold values), and goes
// with the transaction.
//
// Only the first arenaLimit bytes are carved: an entry replaced by a later
// write of the same key is dead but its arena memory stays until the end
// of the transaction, so a long transaction that rewrites the same rows
// would pin every old version. Past the limit, and for entries too large
// to share a chunk, each write allocates its own memory as before, which
// the garbage collector frees once the entry is replaced.
const (
	writeChunk = 4 << 10
	maxCarved  = 1 << 10
	arenaLimit = 64 << 10
	itemChunk  = 32
)

// carve returns n bytes for a buffered entry.
func (t *Txn) carve(n int) []byte {
	if n > maxCarved || t.wcarved+n > arenaLimit {
		return make([]byte, n)
	}
	if cap(t.wmem)-len(t.wmem) < n {
		t.wmem = make([]byte, 0, writeChunk)
	}
	start := len(t.wmem)
	t.wmem = t.wmem[:start+n]
	t.wcarved += n
	return t.wmem[start : start+n : start+n]
}

// newItem returns a zero item for a buffered entry.
func (t *Txn) newItem() *item {
	if len(t.witems) == cap(t.witems) {
		if t.wcarved >= arenaLimit {
			return &item{}
		}
		t.witems = make([]item, 0, itemChunk)
	}
	t.witems = t.witems[:len(t.witems)+1]
	return &t.witems[len(t.witems)-1]
}
