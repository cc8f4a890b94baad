package encoding

// Invert replaces b with its ones' complement in place. Applied to the
// ascending encoding of one key part it yields the descending encoding.
func Invert(b []byte) {
	for i := range b {
		b[i] = ^b[i]
	}
}

// PrefixEnd returns the smallest key greater than every key that has prefix
// b: b with its last non-0xff byte incremented and the trailing 0xff bytes
// removed. It returns nil when there is no such key (b is empty or all 0xff),
// meaning "no upper bound". The result is a new slice; b is not modified.
func PrefixEnd(b []byte) []byte {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != 0xff {
			end := make([]byte, i+1)
			copy(end, b)
			end[i]++
			return end
		}
	}
	return nil
}
