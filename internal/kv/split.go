package kv

import (
	"bytes"

	"github.com/cockroachdb/pebble/v2"
)

// SplitPoints returns up to n-1 keys that cut [lo, hi) into parts holding
// about the same bytes, for scanning the parts in parallel. They are the
// end keys of table files in the lowest level holding data of the range
// (where most of it lives), chosen at equal shares of those files' sizes.
// A range smaller than minBytes, or held by fewer files than parts, gets
// none: one scan is as fast.
func (db *DB) SplitPoints(lo, hi []byte, n int, minBytes uint64) ([][]byte, error) {
	if n < 2 {
		return nil, nil
	}
	levels, err := db.pdb.SSTables(pebble.WithKeyRangeFilter(lo, hi))
	if err != nil {
		return nil, opError("list tables", err)
	}
	var files []pebble.SSTableInfo
	for l := len(levels) - 1; l >= 0; l-- {
		if len(levels[l]) > 0 {
			files = levels[l]
			break
		}
	}
	var total uint64
	for _, f := range files {
		total += f.Size
	}
	if total < minBytes || len(files) < n {
		return nil, nil
	}
	var out [][]byte
	var acc uint64
	next := total / uint64(n)
	for _, f := range files[:len(files)-1] {
		acc += f.Size
		if acc < next {
			continue
		}
		k := f.Largest.UserKey
		if bytes.Compare(k, lo) <= 0 || bytes.Compare(k, hi) >= 0 {
			continue
		}
		// The cut is just past the file's last key, so each key is in
		// exactly one part.
		out = append(out, append(append([]byte(nil), k...), 0))
		if len(out) == n-1 {
			break
		}
		next = total * uint64(len(out)+1) / uint64(n)
	}
	return out, nil
}
