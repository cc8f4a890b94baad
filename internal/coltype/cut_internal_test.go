package coltype

import (
	"testing"
	"unicode/utf8"
)

// TestCutChars: the byte length of a string's first n characters, with the
// ASCII word-at-a-time prefix and the rune-by-rune rest agreeing with a
// plain count.
func TestCutChars(t *testing.T) {
	for _, s := range []string{"", "a", "abcdefgh", "abcdefghijklmnopq", "héllo wörld", "abcdefgh€ijklmnop", "€€€", "abcdefg\xffh"} {
		b := []byte(s)
		for n := 0; n <= len(b)+2; n++ {
			want, i := 0, 0
			for k := 0; k < n && i < len(b); k++ {
				_, size := utf8.DecodeRune(b[i:])
				i += size
			}
			want = i
			if got := cutChars(b, n); got != want {
				t.Errorf("cutChars(%q, %d) = %d, want %d", s, n, got, want)
			}
		}
	}
	if got := asciiPrefix([]byte("abcdefghij€"), 100); got != 10 {
		t.Errorf("asciiPrefix = %d, want 10", got)
	}
	if got := asciiPrefix([]byte("abcdefghij"), 3); got != 3 {
		t.Errorf("asciiPrefix bounded = %d, want 3", got)
	}
}
