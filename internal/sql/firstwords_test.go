package sql

import (
	"strings"
	"testing"
)

// TestFirstWords: the first n words of a statement, as strings.Fields
// would give them, joined by single spaces.
func TestFirstWords(t *testing.T) {
	for _, sql := range []string{"", "   ", "SELECT 1", "  create \t\n user  'a'@'b' IDENTIFIED BY 'x'", "drop\u00a0user x", "DROP", "a b c d e f", "é ü\u2003x y"} {
		for n := 0; n <= 5; n++ {
			f := strings.Fields(sql)
			if len(f) > n {
				f = f[:n]
			}
			if got, want := firstWords(sql, n), strings.Join(f, " "); got != want {
				t.Errorf("firstWords(%q, %d) = %q, want %q", sql, n, got, want)
			}
		}
	}
}
