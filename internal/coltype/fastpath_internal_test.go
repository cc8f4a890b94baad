package coltype

import (
	"testing"
	"unicode/utf8"

	"vitess.io/vitess/go/sqltypes"
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
}

// TestDigitText: only plain digit strings that fit take the fast path.
func TestDigitText(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "007": 7, "1234567890123456789": 1234567890123456789,
		"": -1, "-1": -1, "+1": -1, " 1": -1, "1.0": -1, "1e3": -1, "12345678901234567890": -1, "１": -1} {
		got, ok := digitText(sqltypes.NewVarChar(in))
		if want < 0 && ok || want >= 0 && (!ok || got != uint64(want)) {
			t.Errorf("digitText(%q) = %d %v, want %d", in, got, ok, want)
		}
	}
	if _, ok := digitText(sqltypes.NewVarBinary("12")); ok {
		t.Error("binary string took the text path")
	}
}
