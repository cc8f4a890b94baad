package collation

import (
	"testing"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/colldata"
)

func id(t *testing.T, name string) collations.ID {
	t.Helper()
	i := collations.MySQL8().LookupByName(name)
	if i == collations.Unknown {
		t.Fatalf("unknown collation %s", name)
	}
	return i
}

func TestPadSpace(t *testing.T) {
	for name, want := range map[string]bool{
		"utf8mb4_bin":           true,
		"utf8mb4_general_ci":    true,
		"utf8mb4_unicode_ci":    true,
		"utf8mb3_bin":           true,
		"latin1_bin":            true,
		"latin1_swedish_ci":     true,
		"ascii_bin":             true,
		"utf16_general_ci":      true,
		"utf16le_bin":           true,
		"utf32_bin":             true,
		"utf8mb4_0900_ai_ci":    false,
		"utf8mb4_0900_bin":      false,
		"utf8mb4_ja_0900_as_cs": false,
		"binary":                false,
	} {
		if got := PadSpace(id(t, name)); got != want {
			t.Errorf("PadSpace(%s) = %v, want %v", name, got, want)
		}
	}
	if PadSpace(collations.Unknown) {
		t.Error("PadSpace(unknown) = true")
	}
}

func TestTrimPad(t *testing.T) {
	for _, tc := range []struct {
		coll string
		in   string
		want string
	}{
		{"utf8mb4_bin", "abc  ", "abc"},
		{"utf8mb4_bin", "  ", ""},
		{"utf8mb4_bin", "a\t", "a\t"},
		{"utf8mb4_0900_bin", "abc ", "abc "},
		{"binary", "abc ", "abc "},
		{"utf16_general_ci", "\x00a\x00 \x00 ", "\x00a"},
		{"utf16_general_ci", "\x01 ", "\x01 "}, // U+0120, not a space
		{"utf16le_general_ci", "a\x00 \x00", "a\x00"},
		{"utf32_general_ci", "\x00\x00\x00a\x00\x00\x00 ", "\x00\x00\x00a"},
		{"ucs2_bin", "\x00a\x20\x20", "\x00a\x20\x20"}, // U+2020
	} {
		if got := string(TrimPad(id(t, tc.coll), []byte(tc.in))); got != tc.want {
			t.Errorf("TrimPad(%s, %q) = %q, want %q", tc.coll, tc.in, got, tc.want)
		}
	}
}

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		coll string
		a, b string
		want int
	}{
		{"utf8mb4_bin", "abc", "abc ", 0},
		{"utf8mb4_bin", "abc", "ABC", 1},
		{"utf8mb4_general_ci", "abc ", "ABC", 0},
		{"utf8mb4_0900_bin", "abc", "abc ", -1},
		{"latin1_bin", "a ", "a", 0},
	} {
		c := colldata.Lookup(id(t, tc.coll))
		got := Compare(c, []byte(tc.a), []byte(tc.b))
		if (got < 0) != (tc.want < 0) || (got > 0) != (tc.want > 0) {
			t.Errorf("Compare(%s, %q, %q) = %d, want sign of %d", tc.coll, tc.a, tc.b, got, tc.want)
		}
	}
}
