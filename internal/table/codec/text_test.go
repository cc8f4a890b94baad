package codec

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/colldata"
	"vitess.io/vitess/go/sqltypes"
)

func TestCollationStyles(t *testing.T) {
	for _, c := range []struct {
		id    collations.ID
		style textStyle
		pad   bool
	}{
		{45, styleUnits16, true},   // utf8mb4_general_ci
		{33, styleUnits16, true},   // utf8mb3_general_ci
		{46, styleUTF8Bin, true},   // utf8mb4_bin
		{83, styleUTF8Bin, true},   // utf8mb3_bin
		{255, styleEscaped, false}, // utf8mb4_0900_ai_ci
		{309, styleEscaped, false}, // utf8mb4_0900_bin
		{8, styleEscaped, true},    // latin1_swedish_ci
		{63, styleEscaped, false},  // binary
		{224, styleEscaped, true},  // utf8mb4_unicode_ci
	} {
		info := collInfos[c.id]
		if info == nil {
			t.Errorf("collation %d unknown", c.id)
			continue
		}
		if info.style != c.style || info.padSpace != c.pad {
			t.Errorf("collation %d (%s): style %d pad %v, want %d %v", c.id, colldata.Lookup(c.id).Name(), info.style, info.padSpace, c.style, c.pad)
		}
	}
}

// TestTextKeyMatchesWeightString checks, over random strings, that text keys
// order exactly like the collation's own weight strings (after the PAD SPACE
// strip) and that SkipKey finds their end, ascending and descending.
func TestTextKeyMatchesWeightString(t *testing.T) {
	alphabet := []string{"a", "A", "b", "z", " ", "  ", "é", "É", "e", "ß", "ss", "Ω", "ω", "中", "文", "😀", "\x00", "~", "0", "ǅ", "\u00ff", "\u0100"}
	rng := rand.New(rand.NewPCG(11, 12))
	strs := []string{"", " ", "a", "a ", "a\x00"}
	for i := 0; i < 150; i++ {
		var sb strings.Builder
		for n := rng.IntN(7); n > 0; n-- {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		strs = append(strs, sb.String())
	}
	for _, id := range []collations.ID{45, 33, 46, 83, 255, 278, 224, 192} {
		coll := colldata.Lookup(id)
		col := textCol(coll.Name(), sqltypes.VarChar, id)
		pad := collInfos[id].padSpace
		mb3 := coll.Charset().Name() == "utf8mb3"
		weight := func(s string) []byte {
			b := []byte(s)
			if pad {
				b = bytes.TrimRight(b, " ")
			}
			return coll.WeightString(nil, b, 0)
		}
		strs := strs
		if mb3 { // utf8mb3 cannot hold 4-byte characters
			strs = slices.DeleteFunc(slices.Clone(strs), func(s string) bool { return strings.Contains(s, "😀") })
		}
		keys := make([][]byte, len(strs))
		descKeys := make([][]byte, len(strs))
		for i, s := range strs {
			keys[i] = mustKey(t, &col, val(col.Type, s), false)
			descKeys[i] = mustKey(t, &col, val(col.Type, s), true)
			for j, k := range [][]byte{keys[i], descKeys[i]} {
				rest, err := SkipKey(append(k, 0x42), &col, j == 1)
				if err != nil || !bytes.Equal(rest, []byte{0x42}) {
					t.Fatalf("%s: SkipKey(%q, desc=%v): rest %x err %v", coll.Name(), s, j == 1, rest, err)
				}
			}
		}
		for i := range strs {
			wi := weight(strs[i])
			for j := range strs {
				want := bytes.Compare(wi, weight(strs[j]))
				if got := bytes.Compare(keys[i], keys[j]); got != want {
					t.Fatalf("%s: key(%q) vs key(%q) = %d, weights say %d", coll.Name(), strs[i], strs[j], got, want)
				}
				if got := bytes.Compare(descKeys[i], descKeys[j]); got != -want {
					t.Fatalf("%s desc: key(%q) vs key(%q) = %d, want %d", coll.Name(), strs[i], strs[j], got, -want)
				}
			}
		}
	}
}

func TestUnits16Compact(t *testing.T) {
	col := textCol("c", sqltypes.VarChar, collGeneralCI)
	k := mustKey(t, &col, val(col.Type, "Hello, world"), false)
	if want := 1 + len("Hello, world") + 1; len(k) != want {
		t.Errorf("ASCII general_ci key is %d bytes, want %d: %x", len(k), want, k)
	}
	// Mixed ASCII, 2-byte and 3-byte units through the in-place rewrite.
	k1 := mustKey(t, &col, val(col.Type, "aω中b"), false)
	k2 := mustKey(t, &col, val(col.Type, "AΩ中B"), false)
	if !bytes.Equal(k1, k2) {
		t.Errorf("case-insensitive keys differ: %x vs %x", k1, k2)
	}
	if want := 1 + 1 + 2 + 3 + 1 + 1; len(k1) != want {
		t.Errorf("mixed key is %d bytes, want %d: %x", len(k1), want, k1)
	}
}

func TestEscapeInPlace(t *testing.T) {
	for _, in := range []string{"", "a", "\x00", "\x00\x00", "a\x00b\x00\x00c", "\x00abc", "abc\x00"} {
		b := append([]byte("pre"), in...)
		got := escapeInPlace(b, 3)
		want := append([]byte("pre"), encodeBytesRef([]byte(in))...)
		if !bytes.Equal(got, want) {
			t.Errorf("escapeInPlace(%q) = %x want %x", in, got, want)
		}
	}
}

func encodeBytesRef(in []byte) []byte {
	var out []byte
	for _, c := range in {
		if c == 0 {
			out = append(out, 0, 0xff)
		} else {
			out = append(out, c)
		}
	}
	return append(out, 0, 1)
}

// TestTextKeyPadSpaceWide checks that PAD SPACE holds for character sets
// whose space is wider than one byte: 'a' and 'a ' share a key under
// utf16_general_ci, utf16le_general_ci and utf32_general_ci (so a unique
// index rejects the second), but not under a NO PAD collation.
func TestTextKeyPadSpaceWide(t *testing.T) {
	for _, tc := range []struct {
		coll     string
		a, aPad  string
		samePads bool
	}{
		{"utf16_general_ci", "\x00a", "\x00a\x00 \x00 ", true},
		{"utf16le_general_ci", "a\x00", "a\x00 \x00", true},
		{"utf32_general_ci", "\x00\x00\x00a", "\x00\x00\x00a\x00\x00\x00 ", true},
		{"ucs2_bin", "\x00a", "\x00a\x00 ", true},
		{"utf8mb4_0900_ai_ci", "a", "a ", false},
	} {
		id := collations.MySQL8().LookupByName(tc.coll)
		col := textCol(tc.coll, sqltypes.VarChar, id)
		k1 := mustKey(t, &col, val(col.Type, tc.a), false)
		k2 := mustKey(t, &col, val(col.Type, tc.aPad), false)
		if got := bytes.Equal(k1, k2); got != tc.samePads {
			t.Errorf("%s: key(%q) == key(%q) is %v, want %v", tc.coll, tc.a, tc.aPad, got, tc.samePads)
		}
	}
}
