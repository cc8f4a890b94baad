package extsort

import (
	"math/bits"
	"slices"
)

// radixMin is the size of a bucket from which radixSorter partitions it
// by the next byte; smaller buckets are finished by comparison.
const radixMin = 48

// insertionMax is the largest bucket finished by insertion sort (larger
// ones that radixSorter cannot split further go to slices.SortFunc).
const insertionMax = radixMin

// digit is byte d (0-15) of r's 16 key-prefix bytes.
func digit(r *rec, d int) int {
	if d < 8 {
		return int(r.p0>>(56-8*d)) & 0xff
	}
	return int(r.p1>>(120-8*d)) & 0xff
}

// radixSorter sorts records by the key bytes after the shared prefix lcp
// and then by cmp (sortMem's order).
type radixSorter struct {
	arena []byte
	lcp   int
	cmp   func(a, b rec) int
}

// sort sorts recs by cmp, given that every record of recs has the same
// key bytes up to byte d of p0|p1, which hold the 16 key bytes from depth
// after the shared prefix (zero-padded): an MSD radix sort (American
// flag: each level partitions the records in place into 256 buckets by
// byte d, then sorts each bucket from byte d+1). Levels where all records
// have the same byte move nothing; a bucket whose 16 prefix bytes are all
// equal reloads p0 and p1 with the next 16 key bytes (keys that share
// long prefixes: URLs of one host); buckets of at most radixMin records,
// and records whose keys are equal to their ends (but for trailing zero
// bytes), are finished by cmp, which orders them by the rest of the key
// and then by off.
//
// cmp must agree with the prefix order: if a's prefix bytes are less than
// b's, cmp(a, b) < 0 (zero padding keeps that true: a key that is shorter
// within the window is a prefix of the other).
func (rs *radixSorter) sort(recs []rec, d, depth int) {
	for {
		if len(recs) <= insertionMax {
			insertionSort(recs, rs.cmp)
			return
		}
		if d >= 16 {
			depth += 16
			if !rs.reload(recs, depth) {
				slices.SortFunc(recs, rs.cmp)
				return
			}
			d = firstDiff(recs)
			continue
		}
		var heads [256]int
		if d < 8 {
			sh := uint(56 - 8*d)
			for i := range recs {
				heads[byte(recs[i].p0>>sh)]++
			}
		} else {
			sh := uint(120 - 8*d)
			for i := range recs {
				heads[byte(recs[i].p1>>sh)]++
			}
		}
		if heads[digit(&recs[0], d)] == len(recs) {
			// One bucket: skip to the first byte where the records differ.
			d = firstDiff(recs)
			continue
		}
		var ends [256]int
		sum := 0
		for b, c := range heads {
			heads[b] = sum
			sum += c
			ends[b] = sum
		}
		// Swap each record into its bucket: every pass of the inner
		// loop puts one record in place.
		for b := range 256 {
			for h := heads[b]; h < ends[b]; h = heads[b] {
				r := recs[h]
				for db := digit(&r, d); db != b; db = digit(&r, d) {
					recs[heads[db]], r = r, recs[heads[db]]
					heads[db]++
				}
				recs[h] = r
				heads[b] = h + 1
			}
		}
		lo := 0
		for _, hi := range ends {
			if hi-lo > 1 {
				rs.sort(recs[lo:hi], d+1, depth)
			}
			lo = hi
		}
		return
	}
}

// reload sets p0 and p1 of recs to the 16 key bytes from depth after the
// shared prefix, reporting whether any key has bytes there.
func (rs *radixSorter) reload(recs []rec, depth int) bool {
	any := false
	at := rs.lcp + depth
	for i := range recs {
		r := &recs[i]
		if r.klen <= at {
			r.p0, r.p1 = 0, 0
			continue
		}
		any = true
		r.p0, r.p1 = keyPrefix(rs.arena[r.off+at : r.off+r.klen])
	}
	return any
}

// firstDiff is the first of the 16 prefix bytes where some records of
// recs differ, or 16 if they all have the same prefix.
func firstDiff(recs []rec) int {
	f0, f1 := recs[0].p0, recs[0].p1
	var x0, x1 uint64
	for i := range recs {
		x0 |= recs[i].p0 ^ f0
		x1 |= recs[i].p1 ^ f1
	}
	switch {
	case x0 != 0:
		return bits.LeadingZeros64(x0) / 8
	case x1 != 0:
		return 8 + bits.LeadingZeros64(x1)/8
	}
	return 16
}

// insertionSort sorts a few records by cmp.
func insertionSort(recs []rec, cmp func(a, b rec) int) {
	for i := 1; i < len(recs); i++ {
		r := recs[i]
		j := i
		for ; j > 0 && cmp(r, recs[j-1]) < 0; j-- {
			recs[j] = recs[j-1]
		}
		recs[j] = r
	}
}
